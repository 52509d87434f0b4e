// KeptCopies (kernels/kept_copies.hpp): a copy is found by its host array's address and length,
// taken once, replaced by a later copy of the same address, and freed when replaced.
#include <doctest/doctest.h>

#include <vector>

#include "kept_copies.hpp"

namespace fdsolve {
namespace {

int g_freed = 0;

void count_free(double* p) {
  ++g_freed;
  delete[] p;
}

Buffer<double> counted(index_t n) { return Buffer<double>(new double[n], n, &count_free); }

}  // namespace

TEST_CASE("kept copies: taken once, by address and length") {
  g_freed = 0;
  std::vector<double> a(8), b(8);
  KeptCopies<double> kept;
  Buffer<double> copy = counted(8);
  const double* device = copy.data();
  kept.keep(a.data(), std::move(copy));
  CHECK(kept.bytes() == 8 * sizeof(double));
  CHECK(kept.take(b.data(), 8).size() == 0);  // another array
  CHECK(kept.take(a.data(), 7).size() == 0);  // another length
  CHECK(kept.bytes() == 8 * sizeof(double));
  {
    Buffer<double> taken = kept.take(a.data(), 8);
    CHECK(taken.data() == device);
    CHECK(kept.bytes() == 0);
    CHECK(kept.take(a.data(), 8).size() == 0);  // once only
    CHECK(g_freed == 0);
  }
  CHECK(g_freed == 1);  // the taker owns it
}

TEST_CASE("kept copies: a later copy of an address replaces the earlier one") {
  g_freed = 0;
  std::vector<double> a(4);
  KeptCopies<double> kept;
  kept.keep(a.data(), counted(4));
  Buffer<double> later = counted(4);
  const double* device = later.data();
  kept.keep(a.data(), std::move(later));
  CHECK(g_freed == 1);  // the earlier copy is gone
  CHECK(kept.bytes() == 4 * sizeof(double));
  CHECK(kept.take(a.data(), 4).data() == device);
  kept.keep(nullptr, counted(4));  // nothing to find it by: not kept, freed at once
  CHECK(kept.bytes() == 0);
  CHECK(g_freed == 3);
}

}  // namespace fdsolve
