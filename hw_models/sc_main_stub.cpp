// libsystemc.so refers to sc_main (its own main() would call it). LightCode's executables have
// their own main() and drive the kernel through engine::simulate(); this definition only
// satisfies the linker and is never called. lc_hw_sc makes every executable that links it
// pull this object (-Wl,--undefined=sc_main), whether or not it uses a module.
extern "C" int sc_main(int /*argc*/, char* /*argv*/[]) { return 0; }  // as <systemc> declares it
