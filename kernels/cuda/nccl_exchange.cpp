// NcclExchange: the CUDA backend's device exchange (nccl_exchange.hpp). Every NCCL call is
// checked (FDSOLVE_NCCL_CHECK: a BackendError naming the call and ncclGetErrorString).
#include "nccl_exchange.hpp"

#include <nccl.h>

#include <cstring>
#include <exception>
#include <string>

#include "backend.hpp"
#include "cuda_check.cuh"

namespace fdsolve::cuda {
namespace {

[[noreturn]] void throw_nccl_error(ncclResult_t result, const char* call, const char* file,
                                   int line) {
  throw BackendError(std::string("NCCL error ") + std::to_string(static_cast<int>(result)) + " (" +
                     ncclGetErrorString(result) + ") in " + call + " at " + file + ":" +
                     std::to_string(line));
}

#define FDSOLVE_NCCL_CHECK(call)                                         \
  do {                                                                   \
    const ncclResult_t fdsolve_nccl_result_ = (call);                    \
    if (fdsolve_nccl_result_ != ncclSuccess)                             \
      throw_nccl_error(fdsolve_nccl_result_, #call, __FILE__, __LINE__); \
  } while (0)

template <typename T>
constexpr ncclDataType_t nccl_type() {
  return sizeof(T) == 4 ? ncclFloat32 : ncclFloat64;
}

template <typename T>
class NcclExchange final : public DeviceExchange<T> {
 public:
  NcclExchange(int device, const cudaUUID_t& uuid, cudaStream_t stream)
      : device_(device), key_(uuid.bytes, sizeof uuid.bytes), stream_(stream) {}
  ~NcclExchange() override {
    if (!comm_) return;
    // A destructor must not throw. On the normal way out every rank ends its communicator
    // (finalize flushes what is in flight, destroy is collective over the node's ranks); while
    // an exception unwinds, the other ranks may never get here, so this one aborts its own.
    cudaSetDevice(device_);
    if (std::uncaught_exceptions() > 0) {
      ncclCommAbort(comm_);
      return;
    }
    cudaStreamSynchronize(stream_);
    if (ncclCommFinalize(comm_) == ncclSuccess)
      ncclCommDestroy(comm_);
    else
      ncclCommAbort(comm_);
  }

  std::string library() const override {
    int version = 0;
    if (ncclGetVersion(&version) != ncclSuccess) return "NCCL";
    // NCCL_VERSION(X, Y, Z) = X * 10000 + Y * 100 + Z since 2.9.
    return "NCCL " + std::to_string(version / 10000) + "." + std::to_string(version / 100 % 100) +
           "." + std::to_string(version % 100);
  }
  std::string device_key() const override { return key_; }
  std::vector<char> unique_id() override {
    ncclUniqueId id;
    FDSOLVE_NCCL_CHECK(ncclGetUniqueId(&id));
    return std::vector<char>(id.internal, id.internal + sizeof id.internal);
  }
  void connect(const std::vector<char>& id, int rank, int ranks) override {
    if (comm_) throw BackendError("the NCCL communicator is already connected");
    ncclUniqueId unique;
    if (id.size() != sizeof unique.internal)
      throw BackendError("an NCCL unique id of " + std::to_string(id.size()) + " bytes (expected " +
                         std::to_string(sizeof unique.internal) + ")");
    std::memcpy(unique.internal, id.data(), id.size());
    FDSOLVE_CUDA_CHECK(cudaSetDevice(device_));
    FDSOLVE_NCCL_CHECK(ncclCommInitRank(&comm_, ranks, unique, rank));
  }
  bool connected() const override { return comm_ != nullptr; }

  void exchange(const std::vector<DeviceMessage<T>>& sends,
                const std::vector<DeviceMessage<T>>& receives) override {
    if (!comm_) throw BackendError("device exchange before the NCCL communicator is connected");
    FDSOLVE_NCCL_CHECK(ncclGroupStart());
    // The group ends even when a call in it fails, so that NCCL is not left inside a group.
    try {
      for (const DeviceMessage<T>& m : receives)
        FDSOLVE_NCCL_CHECK(ncclRecv(m.data, m.count, nccl_type<T>(), m.peer, comm_, stream_));
      for (const DeviceMessage<T>& m : sends)
        FDSOLVE_NCCL_CHECK(ncclSend(m.data, m.count, nccl_type<T>(), m.peer, comm_, stream_));
    } catch (...) {
      ncclGroupEnd();
      throw;
    }
    FDSOLVE_NCCL_CHECK(ncclGroupEnd());
  }

 private:
  int device_;
  std::string key_;
  cudaStream_t stream_;
  ncclComm_t comm_ = nullptr;
};

}  // namespace

template <typename T>
std::unique_ptr<DeviceExchange<T>> make_nccl_exchange(int device, const cudaUUID_t& uuid,
                                                      cudaStream_t stream) {
  return std::make_unique<NcclExchange<T>>(device, uuid, stream);
}

template std::unique_ptr<DeviceExchange<float>> make_nccl_exchange<float>(int, const cudaUUID_t&,
                                                                          cudaStream_t);
template std::unique_ptr<DeviceExchange<double>> make_nccl_exchange<double>(int, const cudaUUID_t&,
                                                                            cudaStream_t);

}  // namespace fdsolve::cuda
