// The one-rank communicator of a build without MPI: every collective is a copy.
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "comm.hpp"

namespace fdsolve::parallel {

Comm Comm::world() { return Comm{}; }

std::vector<char> Comm::allgather(const void* data, std::size_t bytes) const {
  const char* p = static_cast<const char*>(data);
  return std::vector<char>(p, p + bytes);
}

std::vector<char> Comm::allgather_blocks(const void* data,
                                         const std::vector<std::size_t>& sizes) const {
  return allgather(data, sizes.at(0));
}

std::vector<char> Comm::gather_to_root(const void* data, std::size_t bytes) const {
  return allgather(data, bytes);
}

void Comm::gather_to_root_into(const void* data, std::size_t bytes,
                               const std::function<void*(std::size_t)>& place) const {
  void* to = place(bytes);
  if (bytes) std::memcpy(to, data, bytes);
}

void Comm::scatter_from_root(const void* blocks, const std::vector<std::size_t>&, void* mine,
                             std::size_t mine_bytes) const {
  if (mine_bytes) std::memcpy(mine, blocks, mine_bytes);
}

long long Comm::max(long long value) const { return value; }

void Comm::sendrecv(const void*, std::size_t, int dest, void*, std::size_t, int source, int) const {
  if (dest >= 0 || source >= 0) throw std::logic_error("sendrecv on a one-rank communicator");
}

struct Requests::List {};

Requests::Requests() : list_(std::make_unique<List>()) {}
Requests::~Requests() = default;
Requests::Requests(Requests&&) noexcept = default;
Requests& Requests::operator=(Requests&&) noexcept = default;
bool Requests::empty() const { return true; }

void Comm::isend(const void*, std::size_t, int peer, int, Requests&) const {
  if (peer >= 0) throw std::logic_error("isend on a one-rank communicator");
}

void Comm::irecv(void*, std::size_t, int peer, int, Requests&) const {
  if (peer >= 0) throw std::logic_error("irecv on a one-rank communicator");
}

void Comm::wait_all(Requests&) const {}

void Comm::barrier() const {}

void Comm::abort(int code) const { std::exit(code); }

std::array<int, 3> Comm::dims_create(int, std::array<int, 3>) const { return {1, 1, 1}; }

MpiSession::MpiSession(int&, char**&) {}
MpiSession::~MpiSession() = default;

std::string mpi_build_text() { return "MPI: off"; }

bool mpi_cuda_aware() { return false; }

}  // namespace fdsolve::parallel
