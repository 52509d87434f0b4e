// Whole fields across ranks for output and restart: the slow path of this first slice, which
// gathers every rank's nodes to rank 0 and writes serially (parallel HDF5 would let each rank
// write its own hyperslab). Dense arrays are C-ordered with x fastest, as in the snapshots.
#pragma once

#include <cstring>
#include <vector>

#include "comm.hpp"
#include "decomposition.hpp"

namespace fdsolve::parallel {

/// The dense field of the whole grid from every rank's dense owned nodes concatenated in rank
/// order (`blocks`, what gather_to_root and allgather_blocks deliver).
template <typename T>
std::vector<T> assemble_field(const Decomposition& d, const char* blocks) {
  const auto& g = d.sub.global;
  std::vector<T> whole(static_cast<std::size_t>(g[0] * g[1] * g[2]));
  const char* from = blocks;
  for (int r = 0; r < d.size; ++r) {
    const Subdomain s = d.subdomain_of(r);
    for (index_t k = 0; k < s.n[2]; ++k)
      for (index_t j = 0; j < s.n[1]; ++j) {
        const index_t at = ((k + s.offset[2]) * g[1] + j + s.offset[1]) * g[0] + s.offset[0];
        const std::size_t row = static_cast<std::size_t>(s.n[0]) * sizeof(T);
        std::memcpy(whole.data() + at, from, row);
        from += row;
      }
  }
  return whole;
}

/// Each rank's owned nodes in bytes, in rank order.
template <typename T>
std::vector<std::size_t> block_bytes(const Decomposition& d) {
  std::vector<std::size_t> bytes;
  for (int r = 0; r < d.size; ++r) {
    const Subdomain s = d.subdomain_of(r);
    bytes.push_back(static_cast<std::size_t>(s.n[0] * s.n[1] * s.n[2]) * sizeof(T));
  }
  return bytes;
}

/// Whether the ranks' owned boxes, concatenated in rank order, are the whole grid's dense array
/// (each box whole x rows, and whole xy planes where it spans several planes, one after the
/// other): a split of the slowest axis only.
inline bool blocks_in_grid_order(const Decomposition& d) {
  const auto& g = d.sub.global;
  index_t next = 0;
  for (int r = 0; r < d.size; ++r) {
    const Subdomain s = d.subdomain_of(r);
    const bool contiguous = s.n[0] == g[0] && (s.n[1] == g[1] || s.n[2] == 1);
    if (!contiguous || (s.offset[2] * g[1] + s.offset[1]) * g[0] + s.offset[0] != next)
      return false;
    next += s.n[0] * s.n[1] * s.n[2];
  }
  return true;
}

/// The dense field of the whole grid on rank 0 (empty on the others), from every rank's dense
/// owned nodes `mine`. On one rank: `mine` itself. Where the ranks split the slowest axis only,
/// rank 0 receives the blocks straight into the whole field (no second copy of it).
template <typename T>
std::vector<T> gather_field(const Comm& comm, const Decomposition& d, const std::vector<T>& mine) {
  if (!comm.several()) return mine;
  if (blocks_in_grid_order(d)) {
    std::vector<T> whole;
    comm.gather_to_root_into(mine.data(), mine.size() * sizeof(T), [&](std::size_t total) {
      whole.resize(total / sizeof(T));
      return static_cast<void*>(whole.data());
    });
    return whole;
  }
  const std::vector<char> bytes = comm.gather_to_root(mine.data(), mine.size() * sizeof(T));
  if (!comm.root()) return {};
  return assemble_field<T>(d, bytes.data());
}

/// The dense field of the whole grid on every rank, from every rank's dense owned nodes `mine`.
template <typename T>
std::vector<T> allgather_field(const Comm& comm, const Decomposition& d,
                               const std::vector<T>& mine) {
  if (!comm.several()) return mine;
  const std::vector<char> bytes = comm.allgather_blocks(mine.data(), block_bytes<T>(d));
  return assemble_field<T>(d, bytes.data());
}

/// The reverse of gather_field: the dense field of the whole grid `whole` cut into every rank's
/// dense owned nodes, concatenated in rank order (what Comm::scatter_from_root sends), with each
/// rank's size in bytes in `bytes`.
template <typename T>
std::vector<T> split_field(const Decomposition& d, const std::vector<T>& whole,
                           std::vector<std::size_t>& bytes) {
  const auto& g = d.sub.global;
  std::vector<T> blocks;
  blocks.reserve(whole.size());
  bytes.clear();
  for (int r = 0; r < d.size; ++r) {
    const Subdomain s = d.subdomain_of(r);
    for (index_t k = 0; k < s.n[2]; ++k)
      for (index_t j = 0; j < s.n[1]; ++j) {
        const index_t at = ((k + s.offset[2]) * g[1] + j + s.offset[1]) * g[0] + s.offset[0];
        blocks.insert(blocks.end(), whole.begin() + at, whole.begin() + at + s.n[0]);
      }
    bytes.push_back(static_cast<std::size_t>(s.n[0] * s.n[1] * s.n[2]) * sizeof(T));
  }
  return blocks;
}

}  // namespace fdsolve::parallel
