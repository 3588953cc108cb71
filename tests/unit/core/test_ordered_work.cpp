// OrderedWork: results in index order whatever the threads, at most `window` computed ahead,
// an item's error at its turn.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "sim/core/ordered_work.hpp"

using lightcode::OrderedWork;

TEST_CASE("ordered work: items in index order for 1, 2 and 5 threads") {
  for (int threads : {1, 2, 5}) {
    CAPTURE(threads);
    // Later items finish first: a worker on item i sleeps less the larger i is.
    OrderedWork<std::string> work(40, threads, 6, [](int64_t i) {
      std::this_thread::sleep_for(std::chrono::microseconds(200 * ((40 - i) % 7)));
      return "item " + std::to_string(i);
    });
    for (int64_t i = 0; i < 40; ++i) CHECK(work.next() == "item " + std::to_string(i));
  }
}

TEST_CASE("ordered work: never more than the window computed and not taken") {
  std::atomic<int64_t> started{0};
  OrderedWork<int64_t> work(100, 3, 4, [&](int64_t i) {
    ++started;
    return i;
  });
  for (int64_t taken = 0; taken < 100; ++taken) {
    // Give the workers time to run ahead as far as they may.
    std::this_thread::sleep_for(std::chrono::microseconds(300));
    CHECK(started.load() <= taken + 4);
    CHECK(work.next() == taken);
  }
}

TEST_CASE("ordered work: an item's error is thrown at its turn, the items before it are returned") {
  for (int threads : {1, 2}) {
    CAPTURE(threads);
    OrderedWork<int> work(10, threads, 3, [](int64_t i) {
      if (i == 4) throw std::runtime_error("item 4 failed");
      return static_cast<int>(i);
    });
    for (int i = 0; i < 4; ++i) CHECK(work.next() == i);
    CHECK_THROWS_WITH_AS(work.next(), "item 4 failed", std::runtime_error);
  }  // the destructor stops the workers with items left
}
