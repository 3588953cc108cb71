// LayerNormalization and Gelu as the element-wise ops TVM lowers them to, the same sequence the
// built-in builders emit (frontend/models/transformer_blocks.cpp: norm, activation), so that
// FLOPs and the fusion rules see one vocabulary. Their constants (eps, 0.5, ...) are folded
// scalars: memory nodes of role parameter.
#include "frontend/onnx/onnx_lowering.hpp"

namespace lightcode::frontend::onnx_detail {

using ir::OpKind;

void lower_layer_norm(Lowerer& l) {
  const auto& in = l.node().input();
  const ir::TensorType xt = l.type_of(in[0]);
  const ir::TensorType yt = l.type_of(l.node().output(0));
  const int rank = xt.shape.rank();
  int64_t axis = l.int_attribute("axis", -1);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank)
    l.fail("axis " + std::to_string(l.int_attribute("axis", -1)) + " of a rank-" +
           std::to_string(rank) + " input");
  ir::TensorType reduced = xt;  // the statistics keep the normalised axes as 1
  for (auto i = static_cast<int>(axis); i < rank; ++i) reduced.shape[i] = 1;
  const ir::Input x = l.data(in[0]);
  const ir::Input mean = l.add(OpKind::mean, "mean", {x}, {reduced});
  const ir::Input centred = l.add(OpKind::subtract, "centre", {x, mean}, {xt});
  const ir::Input square =
      l.add(OpKind::power, "square", {centred, l.scalar("two", xt.dtype)}, {xt});
  const ir::Input variance = l.add(OpKind::mean, "variance", {square}, {reduced});
  const ir::Input shifted =
      l.add(OpKind::add, "add_eps", {variance, l.scalar("eps", xt.dtype)}, {reduced});
  const ir::Input inv = l.add(OpKind::rsqrt, "rsqrt", {shifted}, {reduced});
  const ir::Input normed = l.add(OpKind::multiply, "normalise", {centred, inv}, {xt});
  ir::Input y = l.add(OpKind::multiply, "gamma", {normed, l.data(in[1])},
                      {ir::TensorType{xt.shape, yt.dtype}});
  if (in.size() > 2 && !in[2].empty()) y = l.add(OpKind::add, "beta", {y, l.data(in[2])}, {yt});
  l.bind(0, y);
}

void lower_gelu(Lowerer& l) {
  const ir::TensorType t = l.type_of(l.node().input(0));
  const ir::Input x = l.data(l.node().input(0));
  const ir::Input half = l.add(OpKind::multiply, "half", {x, l.scalar("half.value", t.dtype)}, {t});
  ir::Input one_plus;
  if (l.string_attribute("approximate", "none") == "tanh") {
    // 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))
    const ir::Input cube = l.add(OpKind::power, "cube", {x, l.scalar("three", t.dtype)}, {t});
    const ir::Input scaled_cube =
        l.add(OpKind::multiply, "scale_cube", {cube, l.scalar("coeff", t.dtype)}, {t});
    const ir::Input inner = l.add(OpKind::add, "inner", {x, scaled_cube}, {t});
    const ir::Input scaled =
        l.add(OpKind::multiply, "scale_inner", {inner, l.scalar("sqrt_2_over_pi", t.dtype)}, {t});
    const ir::Input tanh = l.add(OpKind::tanh, "tanh", {scaled}, {t});
    one_plus = l.add(OpKind::add, "one_plus", {tanh, l.scalar("one", t.dtype)}, {t});
  } else {
    // 0.5 * x * (1 + erf(x / sqrt(2)))
    const ir::Input scaled =
        l.add(OpKind::multiply, "scale", {x, l.scalar("inv_sqrt2", t.dtype)}, {t});
    const ir::Input erf = l.add(OpKind::erf, "erf", {scaled}, {t});
    one_plus = l.add(OpKind::add, "one_plus", {erf, l.scalar("one", t.dtype)}, {t});
  }
  l.bind(0, l.add(OpKind::multiply, "", {half, one_plus}, {t}));
}

}  // namespace lightcode::frontend::onnx_detail
