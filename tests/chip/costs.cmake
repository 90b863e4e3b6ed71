# CTest COSTs (about their seconds on a 2-core machine) of the default suite's long chip tests, so
# that `ctest -j2` starts them early, beside rtl.synth_check and regress.quick, and no slot idles at
# the end. Read by CTest (tests/chip/CMakeLists.txt, TEST_INCLUDE_FILES) after the discovered tests.
set(db_long_chip_tests
  "HwSearchCosim.SharedDataWithGeneratorWeights" 240
  "HwSearchCosim.RandomWeightsAndParameters" 190
  "HwSearchCosim.GameHistoriesWithRandomRepetitionParameters" 55
  "Backends/HwSearchChip.MatesInThreeAsStockfishScoresThem/\"cosim\"" 26
  "ChipCosim.EveryModeSameSequenceAlongRandomGames" 23
  "Backends/SlowEvalChip.RandomWeightsAlongRandomGamesMatchTheReference/\"cosim\"" 12
  "Backends/ChipPlacement.IncrementalStateMatchesTheBoardWithRandomWeights/\"cosim\"" 11
)
while(db_long_chip_tests)
  list(POP_FRONT db_long_chip_tests name cost)
  set_tests_properties("${name}" PROPERTIES COST ${cost})
endwhile()
