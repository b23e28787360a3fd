// G-native-graph (profiler.md §3.8): a plain CUDA program that captures two <<<>>> launches on
// a non-default stream (global capture mode) inside NVTX "capture", instantiates the graph and
// launches it 20 times inside NVTX "replay". Under `proton` the replayed kernels must land on
// ROOT/replay/<captured_at>/capture/<kernel>, 20 each, with no fallback warning.
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdio>

__global__ void kernel_a(float* x) { x[threadIdx.x] += 1.0f; }
__global__ void kernel_b(float* x) { x[threadIdx.x] *= 2.0f; }

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t e = (call);                                                  \
    if (e != cudaSuccess) {                                                  \
      std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(e)); \
      return 1;                                                              \
    }                                                                        \
  } while (0)

int main() {
  float* x = nullptr;
  CHECK(cudaMalloc(&x, 256 * sizeof(float)));
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  nvtxRangePushA("capture");
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  kernel_a<<<1, 256, 0, stream>>>(x);
  kernel_b<<<1, 256, 0, stream>>>(x);
  CHECK(cudaStreamEndCapture(stream, &graph));
  nvtxRangePop();
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  nvtxRangePushA("replay");
  for (int i = 0; i < 20; ++i) CHECK(cudaGraphLaunch(exec, stream));
  nvtxRangePop();
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  std::printf("graph_capture done\n");
  return 0;
}
