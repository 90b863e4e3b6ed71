// Database files: written and read back equal; a damaged file is refused, naming what is wrong.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "egtb_fixture.h"

namespace db::egtb {
namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("egtb_test_" + std::to_string(::getpid()) + "_" + name)).string();
}

std::string error_of(const std::string& path) {
  try {
    read_table(path);
  } catch (const EgtbError& e) {
    return e.what();
  }
  return "";
}

TEST(Files, RoundTripAndDamage) {
  const Table& krk = *test::three_pieces().find(Material::parse("KRvK"));
  const std::string path = temp_path("KRvK.dbtb");
  write_table(path, krk);
  EXPECT_LT(std::filesystem::file_size(path), krk.entries.size() / 2);  // compressed
  EXPECT_EQ(read_table(path).entries, krk.entries);

  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  auto write = [&](const std::string& b) {
    std::ofstream(path, std::ios::binary).write(b.data(), std::streamsize(b.size()));
  };
  std::string bad = bytes;
  bad[0] = 'X';
  write(bad);
  EXPECT_NE(error_of(path).find("bad magic"), std::string::npos) << error_of(path);
  bad = bytes;
  bad[8] = 'X';
  write(bad);
  EXPECT_NE(error_of(path).find("header field material"), std::string::npos) << error_of(path);
  bad = bytes;
  bad[8 + 16] ^= 1;
  write(bad);
  EXPECT_NE(error_of(path).find("header field entries"), std::string::npos) << error_of(path);
  write(bytes.substr(0, bytes.size() - 10));
  EXPECT_NE(error_of(path).find("compressed size"), std::string::npos) << error_of(path);
  bad = bytes;
  bad[bytes.size() - 20] ^= 0x55;
  write(bad);
  EXPECT_NE(error_of(path).find("entries:"), std::string::npos) << error_of(path);
  std::remove(path.c_str());
  EXPECT_NE(error_of(path).find("cannot open"), std::string::npos) << error_of(path);
}

}  // namespace
}  // namespace db::egtb
