// doctest runner for every test binary (SystemC ones included: sc_main is a stub there).
// ctest runs each case as `<binary> --test-case=<name>` (doctest_discover_tests); a name the
// filter does not match (a ';' in a case name splits it into two ctest entries) would run no
// case and pass. So a run in which no test case passes the filters fails (exit 1) with a
// message instead. Exit code 77 is reserved for skips (tests/support/python.hpp).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

namespace {

unsigned g_selected = 0;  // test cases that passed the filters in this run
bool g_ran = false;

// Listens to the run only to learn how many test cases the filters selected.
struct SelectedCases : doctest::IReporter {
  explicit SelectedCases(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats& s) override {
    g_ran = true;
    g_selected = s.numTestCasesPassingFilters;
  }
  void test_case_start(const doctest::TestCaseData&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};

REGISTER_LISTENER("selected_cases", 1, SelectedCases);

}  // namespace

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int status = context.run();
  if (context.shouldExit() || !g_ran) return status;  // --help, --list-test-cases, ...
  if (g_selected == 0) {
    std::fprintf(stderr, "error: no test case matches the filters (a name with ';' or a typo?)\n");
    return status != 0 ? status : 1;
  }
  return status;
}
