/* Preloaded into an MPI run of a CPU build: the loaded MPI library says it is
 * CUDA-aware (Open MPI's query), whatever the header it was compiled against
 * said. tests/apps/halo.cmake: the query must be asked at run time. */
int MPIX_Query_cuda_support(void);
int MPIX_Query_cuda_support(void) { return 1; }
