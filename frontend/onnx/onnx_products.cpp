// MatMul, Gemm and Conv as TVM's products: dense [M, K] x [N, K] -> [M, N] when B is a matrix
// (a weight), batch_matmul [B, M, K] x [B, N, K] -> [B, M, N] otherwise, with the reshapes and
// broadcasts around them that TVM's ONNX frontend emits. MACs are then output elements times
// K, as for every product (sim/ir/metrics.hpp). Conv is im2col (a gather of the input patches,
// ir `take`) and one product: MACs = N x output pixels x Cout x Cin / group x kernel pixels.
#include <numeric>

#include "frontend/onnx/onnx_lowering.hpp"
#include "sim/core/checked.hpp"

namespace lightcode::frontend::onnx_detail {
namespace {

using ir::Shape;

std::vector<int> swap_last_two(int rank) {
  std::vector<int> perm(static_cast<size_t>(rank));
  std::iota(perm.begin(), perm.end(), 0);
  if (rank >= 2)
    std::swap(perm[static_cast<size_t>(rank - 1)], perm[static_cast<size_t>(rank - 2)]);
  return perm;
}

int64_t product(const Lowerer& l, const Shape& s, int from, int to) {
  int64_t n = 1;
  for (int i = from; i < to; ++i)
    n = checked_mul(n, s[i], [&] { return "a dimension of " + l.node_name(); });
  return n;
}

// The product's result reshaped to the output ONNX inferred, and bound to output 0.
void finish(Lowerer& l, ir::Input y) {
  const ir::TensorType out = l.type_of(l.node().output(0));
  if (l.type(y).shape.elements() != out.shape.elements()) {
    l.fail("computes " + l.type(y).shape.str() + " where shape inference says " + out.shape.str());
  }
  l.bind(0, l.reshape(y, out.shape, "reshape"));
}

// x [..., rows, cols] as [batch, rows, cols], broadcast first when its batch axes are fewer.
ir::Input batched(Lowerer& l, ir::Input x, const Shape& batch_axes, int64_t batch,
                  const std::string& label) {
  const ir::TensorType t = l.type(x);
  const int r = t.shape.rank();
  const int64_t rows = t.shape[r - 2], cols = t.shape[r - 1];
  if (product(l, t.shape, 0, r - 2) != batch) {
    Shape full = batch_axes;
    full.push_back(rows);
    full.push_back(cols);
    x = l.add(ir::OpKind::other, label + ".broadcast", {x}, {ir::TensorType{full, t.dtype}}, "to");
  }
  return l.reshape(x, Shape{batch, rows, cols}, label + ".view");
}

}  // namespace

void lower_matmul(Lowerer& l) {
  const std::string& a = l.node().input(0);
  const std::string& b = l.node().input(1);
  ir::TensorType at = l.type_of(a);
  const ir::TensorType bt = l.type_of(b);
  if (at.shape.rank() == 0 || bt.shape.rank() == 0) l.fail("MatMul of a scalar");
  ir::Input ai = l.data(a);
  if (at.shape.rank() == 1) {  // a vector is a one-row matrix
    at.shape = Shape{1, at.shape[0]};
    ai = l.reshape(ai, at.shape, "a.view");
  }
  const int ra = at.shape.rank(), rb = bt.shape.rank();
  const int64_t k = at.shape.back();
  const int64_t kb = rb == 1 ? bt.shape[0] : bt.shape[rb - 2];
  if (k != kb)
    l.fail("multiplies " + at.shape.str() + " by " + bt.shape.str() + ": inner dimensions differ");
  if (rb <= 2) {
    // dense: A's leading axes are rows; B (a vector: one column) transposed to [N, K].
    const int64_t m = product(l, at.shape, 0, ra - 1);
    const int64_t n = rb == 1 ? 1 : bt.shape[1];
    const ir::Input a2 = l.reshape(ai, Shape{m, k}, "a.view");
    const ir::Input bT = rb == 1 ? l.reshape(l.data(b), Shape{1, k}, "b.view")
                                 : l.permuted(b, {1, 0}, "transpose_b");
    finish(l, l.add(ir::OpKind::dense, "", {a2, bT}, {ir::TensorType{Shape{m, n}, at.dtype}}));
    return;
  }
  // batch_matmul over the broadcast batch axes.
  Shape batch_axes;
  const int axes = std::max(ra, rb) - 2;
  for (int i = axes; i >= 1; --i) {
    const int64_t x = at.shape.from_back(i + 2), y = bt.shape.from_back(i + 2);
    if (x != y && x != 1 && y != 1)
      l.fail("cannot broadcast the batch axes of " + at.shape.str() + " and " + bt.shape.str());
    batch_axes.push_back(x == 1 ? y : x);
  }
  const int64_t batch = product(l, batch_axes, 0, batch_axes.rank());
  const int64_t m = at.shape[ra - 2], n = bt.shape.back();
  const ir::Input a3 = batched(l, ai, batch_axes, batch, "a");
  const ir::Input b3 =
      batched(l, l.permuted(b, swap_last_two(rb), "transpose_b"), batch_axes, batch, "b");
  finish(l,
         l.add(ir::OpKind::matmul, "", {a3, b3}, {ir::TensorType{Shape{batch, m, n}, at.dtype}}));
}

void lower_gemm(Lowerer& l) {
  const auto& in = l.node().input();
  const ir::TensorType at = l.type_of(in[0]);
  const ir::TensorType bt = l.type_of(in[1]);
  if (at.shape.rank() != 2 || bt.shape.rank() != 2)
    l.fail("Gemm of " + at.shape.str() + " and " + bt.shape.str() + ": expected matrices");
  const bool trans_a = l.int_attribute("transA", 0) != 0;
  const bool trans_b = l.int_attribute("transB", 0) != 0;
  const ir::Input a = trans_a ? l.permuted(in[0], {1, 0}, "transpose_a") : l.data(in[0]);
  const ir::Input bT = trans_b ? l.data(in[1]) : l.permuted(in[1], {1, 0}, "transpose_b");
  const Shape& as = l.type(a).shape;
  const Shape& bs = l.type(bT).shape;
  if (as[1] != bs[1])
    l.fail("multiplies " + at.shape.str() + " by " + bt.shape.str() + ": inner dimensions differ");
  const ir::TensorType out = l.type_of(l.node().output(0));
  ir::Input y =
      l.add(ir::OpKind::dense, "", {a, bT}, {ir::TensorType{Shape{as[0], bs[0]}, at.dtype}});
  if (l.float_attribute("alpha", 1.0f) != 1.0f) {
    y = l.add(ir::OpKind::multiply, "alpha", {y, l.scalar("alpha.value", at.dtype)}, {l.type(y)});
  }
  if (in.size() > 2 && !in[2].empty()) {
    ir::Input c = l.data(in[2]);
    if (l.float_attribute("beta", 1.0f) != 1.0f) {
      c = l.add(ir::OpKind::multiply, "beta", {c, l.scalar("beta.value", at.dtype)}, {l.type(c)});
    }
    y = l.add(ir::OpKind::add, "bias_add", {y, c}, {ir::TensorType{l.type(y).shape, out.dtype}});
  }
  finish(l, y);
}

void lower_conv(Lowerer& l) {
  const auto& in = l.node().input();
  const ir::TensorType xt = l.type_of(in[0]);
  const ir::TensorType wt = l.type_of(in[1]);
  const ir::TensorType yt = l.type_of(l.node().output(0));
  const int r = xt.shape.rank();
  const int64_t group = l.int_attribute("group", 1);
  if (r < 3 || wt.shape.rank() != r || yt.shape.rank() != r || group < 1) {
    l.fail("Conv of " + xt.shape.str() + " by " + wt.shape.str() +
           ": expected [N, C, ...] and [M, C / group, ...]");
  }
  const int64_t batch = xt.shape[0], channels = xt.shape[1], out_channels = wt.shape[0];
  if (out_channels % group != 0 || checked_mul(wt.shape[1], group, "Conv channels") != channels) {
    l.fail("Conv of " + std::to_string(channels) + " channels into " +
           std::to_string(out_channels) + " in " + std::to_string(group) + " groups with weights " +
           wt.shape.str());
  }
  const int64_t pixels = checked_mul(batch, product(l, yt.shape, 2, r), "Conv output pixels");
  const int64_t patch = product(l, wt.shape, 1, r);  // Cin / group x kernel pixels
  const bool grouped = group > 1;
  // im2col: each output pixel's patch as a row (a gather of the input; its bytes are moved).
  const Shape cols = grouped ? Shape{group, pixels, patch} : Shape{pixels, patch};
  const ir::Input x =
      l.add(ir::OpKind::take, "im2col", {l.data(in[0])}, {ir::TensorType{cols, xt.dtype}});
  const Shape wshape =
      grouped ? Shape{group, out_channels / group, patch} : Shape{out_channels, patch};
  const ir::Input w = l.reshape(l.data(in[1]), wshape, "weight.view");
  ir::Input y;
  if (grouped) {
    y = l.add(ir::OpKind::matmul, "", {x, w},
              {ir::TensorType{Shape{group, pixels, out_channels / group}, xt.dtype}});
    y = l.reshape(l.transpose(y, {1, 0, 2}, "groups"),
                  Shape{batch, pixels / std::max<int64_t>(batch, 1), out_channels}, "view");
  } else {
    y = l.add(ir::OpKind::dense, "", {x, w},
              {ir::TensorType{Shape{pixels, out_channels}, xt.dtype}});
    y = l.reshape(y, Shape{batch, pixels / std::max<int64_t>(batch, 1), out_channels}, "view");
  }
  y = l.reshape(l.transpose(y, {0, 2, 1}, "channels_first"), yt.shape, "reshape");
  if (in.size() > 2 && !in[2].empty()) {
    Shape bias{out_channels};
    for (int i = 2; i < r; ++i) bias.push_back(1);
    y = l.add(ir::OpKind::add, "bias_add", {y, l.reshape(l.data(in[2]), bias, "bias.view")}, {yt});
  }
  l.bind(0, y);
}

}  // namespace lightcode::frontend::onnx_detail
