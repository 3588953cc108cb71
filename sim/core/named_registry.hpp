#pragma once
// Registered objects found by name (profiles, scheduling policies): each T has
// std::string_view name() const. Static tables of described entries (objectives, partition
// and fusion rules, GPU runtimes) use named_in() below. Explicit: whoever owns a registry adds its objects in one
// place; a name added twice is a programming error, a name not found is a lightcode::Error
// that lists the known ones ("unknown scheduler 'fifo' (known: list, lightcode)").
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/error.hpp"

namespace lightcode {

template <class T>
class NamedRegistry {
 public:
  explicit NamedRegistry(std::string_view what) : what_(what) {}

  void add(std::unique_ptr<T> item) {
    if (find(item->name())) throw std::logic_error(what_ + " registered twice: " + std::string(item->name()));
    items_.push_back(std::move(item));
  }
  const T* find(std::string_view name) const {
    for (const auto& item : items_) {
      if (item->name() == name) return item.get();
    }
    return nullptr;
  }
  const T& at(std::string_view name) const {
    if (const T* item = find(name)) return *item;
    std::string known;
    for (const auto& item : items_) known += (known.empty() ? "" : ", ") + std::string(item->name());
    throw Error("unknown " + what_ + " '" + excerpt(std::string(name)) + "' (known: " + known + ")");
  }
  const std::vector<std::unique_ptr<T>>& all() const { return items_; }

 private:
  std::string what_;
  std::vector<std::unique_ptr<T>> items_;
};

// The entry of `items` (each with a `name` member) called `name`; a lightcode::Error listing
// the known names otherwise ("unknown fusion rule 'x' (known: gemm_epilogue, ...)").
template <class T>
const T& named_in(const std::vector<T>& items, std::string_view name, std::string_view what) {
  std::string known;
  for (const T& item : items) {
    if (item.name == name) return item;
    known += (known.empty() ? "" : ", ") + std::string(item.name);
  }
  throw Error("unknown " + std::string(what) + " '" + excerpt(std::string(name)) + "' (known: " + known + ")");
}

}  // namespace lightcode
