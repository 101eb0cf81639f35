// Fuzzes the JPEG header path of calibrate decode: any bytes as a file, checked against a bound
// (the header read first; an image past the bound is never allocated) and decoded when within
// it. Nothing may crash, leak or read out of bounds, and a file that decodes fills its pixels.
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "measure/decode.hpp"

using namespace pipesim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<unsigned char> file(data, data + size);
  std::vector<unsigned char> scratch;
  // 16 MiB: a header that claims more is refused before anything is allocated for it.
  const JpegCheck c = check_jpeg(file, std::size_t{16} << 20, scratch);
  if (c == JpegCheck::Decodes && scratch.empty()) std::abort();
  if (c != JpegCheck::Decodes && scratch.size() > (std::size_t{16} << 20)) std::abort();
  return 0;
}
