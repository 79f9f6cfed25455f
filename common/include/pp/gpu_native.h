/* One spelling for the CUDA and HIP runtime calls and warp intrinsics that
 * ProxyPort uses, so a native kernel or glue file is written once (in CUDA
 * dialect) and compiled by nvcc as CUDA or by hipcc as HIP. */
#ifndef PP_GPU_NATIVE_H
#define PP_GPU_NATIVE_H

#ifdef PP_NATIVE_HIP
#include <hip/hip_runtime.h>
#define PP_NATIVE_MODEL PP_HIP
#define gpuError_t hipError_t
#define gpuSuccess hipSuccess
#define gpuGetErrorString hipGetErrorString
#define gpuGetLastError hipGetLastError
#define gpuGetDeviceCount hipGetDeviceCount
#define gpuSetDevice hipSetDevice
#define gpuGetDevice hipGetDevice
#define gpuSetDeviceFlags hipSetDeviceFlags
#define gpuDeviceScheduleAuto hipDeviceScheduleAuto
#define gpuDeviceScheduleSpin hipDeviceScheduleSpin
#define gpuDeviceScheduleYield hipDeviceScheduleYield
#define gpuDeviceScheduleBlockingSync hipDeviceScheduleBlockingSync
#define gpuDeviceProp hipDeviceProp_t
#define gpuGetDeviceProperties hipGetDeviceProperties
#define gpuMemGetInfo hipMemGetInfo
#define gpuDeviceGetPCIBusId hipDeviceGetPCIBusId
#define gpuDriverGetVersion hipDriverGetVersion
#define gpuRuntimeGetVersion hipRuntimeGetVersion
#define gpuMalloc hipMalloc
#define gpuFree hipFree
#define gpuMemcpy hipMemcpy
#define gpuMemset hipMemset
#define gpuMemcpyHostToDevice hipMemcpyHostToDevice
#define gpuMemcpyDeviceToHost hipMemcpyDeviceToHost
#define gpuMemcpyDeviceToDevice hipMemcpyDeviceToDevice
#define gpuDeviceSynchronize hipDeviceSynchronize
#define gpuStream_t hipStream_t
#define gpuStreamCreateWithFlags hipStreamCreateWithFlags
#define gpuStreamNonBlocking hipStreamNonBlocking
#define gpuStreamSynchronize hipStreamSynchronize
#define gpuStreamDestroy hipStreamDestroy
#define gpuStreamWaitEvent hipStreamWaitEvent
#define gpuMemcpyAsync hipMemcpyAsync
#define gpuMemcpyKind hipMemcpyKind
#define gpuEvent_t hipEvent_t
#define gpuEventCreate hipEventCreate
#define gpuEventRecord hipEventRecord
#define gpuEventSynchronize hipEventSynchronize
#define gpuEventElapsedTime hipEventElapsedTime
#define gpuEventCreateWithFlags hipEventCreateWithFlags
#define gpuEventDisableTiming hipEventDisableTiming
#define gpuEventDestroy hipEventDestroy
#define PP_WARP 64 /* AMD CDNA wavefront */
#define pp_shfl_down(v, off) __shfl_down((v), (off), PP_WARP)
#else
#include <cuda_runtime.h>
#define PP_NATIVE_MODEL PP_CUDA
#define gpuError_t cudaError_t
#define gpuSuccess cudaSuccess
#define gpuGetErrorString cudaGetErrorString
#define gpuGetLastError cudaGetLastError
#define gpuGetDeviceCount cudaGetDeviceCount
#define gpuSetDevice cudaSetDevice
#define gpuGetDevice cudaGetDevice
#define gpuSetDeviceFlags cudaSetDeviceFlags
#define gpuDeviceScheduleAuto cudaDeviceScheduleAuto
#define gpuDeviceScheduleSpin cudaDeviceScheduleSpin
#define gpuDeviceScheduleYield cudaDeviceScheduleYield
#define gpuDeviceScheduleBlockingSync cudaDeviceScheduleBlockingSync
#define gpuDeviceProp cudaDeviceProp
#define gpuGetDeviceProperties cudaGetDeviceProperties
#define gpuMemGetInfo cudaMemGetInfo
#define gpuDeviceGetPCIBusId cudaDeviceGetPCIBusId
#define gpuDriverGetVersion cudaDriverGetVersion
#define gpuRuntimeGetVersion cudaRuntimeGetVersion
#define gpuMalloc cudaMalloc
#define gpuFree cudaFree
#define gpuMemcpy cudaMemcpy
#define gpuMemset cudaMemset
#define gpuMemcpyHostToDevice cudaMemcpyHostToDevice
#define gpuMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define gpuMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define gpuDeviceSynchronize cudaDeviceSynchronize
#define gpuStream_t cudaStream_t
#define gpuStreamCreateWithFlags cudaStreamCreateWithFlags
#define gpuStreamNonBlocking cudaStreamNonBlocking
#define gpuStreamSynchronize cudaStreamSynchronize
#define gpuStreamDestroy cudaStreamDestroy
#define gpuStreamWaitEvent cudaStreamWaitEvent
#define gpuMemcpyAsync cudaMemcpyAsync
#define gpuMemcpyKind cudaMemcpyKind
#define gpuEvent_t cudaEvent_t
#define gpuEventCreate cudaEventCreate
#define gpuEventRecord cudaEventRecord
#define gpuEventSynchronize cudaEventSynchronize
#define gpuEventElapsedTime cudaEventElapsedTime
#define gpuEventCreateWithFlags cudaEventCreateWithFlags
#define gpuEventDisableTiming cudaEventDisableTiming
#define gpuEventDestroy cudaEventDestroy
#define PP_WARP 32
#define pp_shfl_down(v, off) __shfl_down_sync(0xffffffffu, (v), (off), PP_WARP)
#endif

#include "pp/device.h"

/* Grid-stride loop over [0, n) from this thread. */
#define PP_GRID_FOR(i, n)                                                        \
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x,                 \
              i##_stride = (size_t)gridDim.x * blockDim.x;                       \
       i < (size_t)(n); i += i##_stride)

/* Sum of v over a warp: lane 0 ends with the total. */
__device__ static inline double pp_warp_sum(double v) {
  for (int d = PP_WARP / 2; d > 0; d /= 2) v += pp_shfl_down(v, d);
  return v;
}
/* Sum of v over the block (up to 1024 threads): shuffles within each warp,
 * then warp 0 adds the warps' sums from shared memory. Valid in thread 0. */
__device__ static inline double pp_block_sum(double v) {
  __shared__ double warp_part[1024 / PP_WARP];
  int t = threadIdx.x, nwarps = (blockDim.x + PP_WARP - 1) / PP_WARP;
  v = pp_warp_sum(v);
  if (t % PP_WARP == 0) warp_part[t / PP_WARP] = v;
  __syncthreads();
  v = 0;
  if (t < PP_WARP) {
    if (t < nwarps) v = warp_part[t];
    v = pp_warp_sum(v);
  }
  return v;
}

/* Checks a runtime call; on failure names the call and exits 3. */
#define PP_GPU_CHECK(call)                                                   \
  do {                                                                       \
    gpuError_t e_ = (call);                                                  \
    if (e_ != gpuSuccess) pp_device_fail(PP_NATIVE_MODEL, #call, gpuGetErrorString(e_)); \
  } while (0)
/* After a kernel launch: launch errors are reported, not ignored. */
#define PP_GPU_CHECK_LAUNCH(what) PP_GPU_CHECK(gpuGetLastError())

#endif
