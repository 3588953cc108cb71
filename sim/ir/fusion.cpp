#include "sim/ir/fusion.hpp"

#include "sim/core/error.hpp"

namespace lightcode::ir {

std::string_view kernel_class_name(KernelClass c) {
  switch (c) {
    case KernelClass::gemm: return "gemm";
    case KernelClass::attention: return "attention";
    case KernelClass::norm: return "norm";
    case KernelClass::rope: return "rope";
    case KernelClass::activation: return "activation";
  }
  return "?";
}

}  // namespace lightcode::ir
