#pragma once
// SHA-256 (FIPS 180-4), for digests of input files and scenarios recorded in results files
// (sim/sweep/provenance.hpp): a sweep resumed or merged against changed inputs is refused by
// comparing them. Self-contained; tests/unit/core/test_sha256.cpp checks the FIPS 180-2
// appendix vectors. Not constant-time, not for secrets: it only tells files apart.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace lightcode {

class Sha256 {
 public:
  Sha256();
  // Any split of the same bytes over calls gives the same digest.
  void update(std::string_view bytes);
  // The digest of everything updated so far; the object is spent afterwards.
  std::array<uint8_t, 32> finish();
  // The same as 64 lowercase hexadecimal digits.
  std::string finish_hex();

 private:
  void block(const unsigned char* data);

  std::array<uint32_t, 8> state_;
  std::array<unsigned char, 64> pending_{};
  size_t pending_size_ = 0;
  uint64_t total_bytes_ = 0;
};

// The SHA-256 of `bytes` in lowercase hexadecimal.
std::string sha256_hex(std::string_view bytes);

}  // namespace lightcode
