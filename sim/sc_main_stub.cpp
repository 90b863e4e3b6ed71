// libsystemc.so refers to sc_main (its own main() calls it); programs and tests that use the model
// from their own main() link this empty one. Compiled into each consumer (an INTERFACE source).
extern "C" int sc_main(int, char**) { return 0; }
