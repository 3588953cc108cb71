#pragma once
// Work items 0 .. count-1 computed by worker threads ahead of a consumer that takes their
// results in order: OrderedWork<T>(count, threads, window, work); next() returns work(0), then
// work(1), ... . `work` must be a pure function of its index, safe to call from several
// threads at once; then what the consumer sees does not depend on the thread count (only
// when it sees it). At most `window` results are computed and not yet taken, so memory stays
// bounded however many items there are. An item that throws rethrows from next() when its
// turn comes (no later item is taken); the destructor stops the workers and waits for them.
// With threads <= 1 every item is computed inside next(), on the caller's thread.
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

namespace lightcode {

// The threads this machine runs at once (std::thread::hardware_concurrency; 1 when unknown).
inline int hardware_threads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
}

template <class T>
class OrderedWork {
 public:
  OrderedWork(int64_t count, int threads, int64_t window, std::function<T(int64_t)> work)
      : count_(count), window_(window < 1 ? 1 : window), work_(std::move(work)) {
    if (threads <= 1) return;
    workers_.reserve(static_cast<size_t>(threads));
    for (int i = 0; i < threads; ++i) workers_.emplace_back([this] { serve(); });
  }
  ~OrderedWork() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    for (std::thread& t : workers_) t.join();
  }
  OrderedWork(const OrderedWork&) = delete;
  OrderedWork& operator=(const OrderedWork&) = delete;

  // The next item's result, in index order; call at most `count` times.
  T next() {
    const int64_t index = taken_;
    if (workers_.empty()) {
      ++taken_;
      return work_(index);
    }
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return done_.count(index) > 0; });
    Outcome out = std::move(done_.at(index));
    done_.erase(index);
    ++taken_;
    changed_.notify_all();  // the window moved
    lock.unlock();
    if (out.error) std::rethrow_exception(out.error);
    return std::move(*out.value);
  }

 private:
  struct Outcome {
    std::optional<T> value;
    std::exception_ptr error;
  };

  void serve() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      changed_.wait(lock, [&] { return stopping_ || (started_ < count_ && started_ < taken_ + window_); });
      if (stopping_) return;
      const int64_t index = started_++;
      lock.unlock();
      Outcome out;
      try {
        out.value.emplace(work_(index));
      } catch (...) {
        out.error = std::current_exception();
      }
      lock.lock();
      done_.emplace(index, std::move(out));
      changed_.notify_all();
    }
  }

  const int64_t count_;
  const int64_t window_;
  const std::function<T(int64_t)> work_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<int64_t, Outcome> done_;  // computed, not yet taken
  int64_t started_ = 0;              // items handed to workers
  int64_t taken_ = 0;                // items returned by next()
  bool stopping_ = false;
  std::vector<std::thread> workers_;  // last: started once the rest is set up
};

}  // namespace lightcode
