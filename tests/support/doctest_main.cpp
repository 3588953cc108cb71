// doctest runner for the unit tests (no SystemC here; tests/sc has its own sc_main runner).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
