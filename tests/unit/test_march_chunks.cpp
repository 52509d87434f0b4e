// How a z-marching sweep cuts its planes into chunks (kernels/march_chunks.hpp), against the
// busy fraction of the resident slots worked out by hand.
#include <doctest/doctest.h>

#include "march_chunks.hpp"

using fdsolve::chunk_count;

TEST_CASE("march chunks: tiles that nearly fill the slots keep one or two chunks") {
  // 512^3 Dirichlet box in float 4-row tiles: 4 x 128 tiles, 8 blocks on 132 SMs. Two chunks
  // are 1024 of 1056 slots (97%) in one wave.
  CHECK(chunk_count(510, 512, 1056) == 2);
  // Exactly the slots: one chunk, one full wave.
  CHECK(chunk_count(510, 1056, 1056) == 1);
  // 257^3: 2 x 64 tiles, 8 chunks = 1024 of 1056 slots.
  CHECK(chunk_count(255, 128, 1056) == 8);
}

TEST_CASE("march chunks: a box one node past the tiles is cut so that the slots stay busy") {
  // 513^3 with Neumann faces: 5 x 129 tiles on 1056 slots. One chunk keeps 645 of 1056 slots
  // busy (61%), two chunks take 1.22 waves (61% again), three 1.83 (92%); eight take 4.89 waves
  // (98%) at 16 re-read planes in 513: the best net of the re-reads.
  CHECK(chunk_count(513, 645, 1056) == 8);
}

TEST_CASE("march chunks: small grids are cut down to 8 planes a chunk") {
  // 65^3: 16 tiles can never fill 1056 slots: as many chunks as 8-plane chunks allow.
  CHECK(chunk_count(63, 16, 1056) == 8);
  CHECK(chunk_count(127, 32, 1056) == 16);
  // Fewer planes than 8: one chunk.
  CHECK(chunk_count(5, 1, 1056) == 1);
  CHECK(chunk_count(1, 1, 1056) == 1);
}

TEST_CASE("march chunks: never more chunks than 8-plane ones, never fewer than one") {
  for (long long n : {1LL, 7LL, 8LL, 9LL, 100LL, 513LL, 4097LL, 100000LL})
    for (long long tiles : {1LL, 3LL, 100LL, 645LL, 5000LL})
      for (long long capacity : {1LL, 264LL, 1056LL, 2112LL}) {
        CAPTURE(n);
        CAPTURE(tiles);
        CAPTURE(capacity);
        const long long c = chunk_count(n, tiles, capacity);
        CHECK(c >= 1);
        CHECK(c <= std::max(1LL, (n + 7) / 8));
      }
}
