/* Prints what the Open MPI library loaded at run time says about CUDA support, beside what the
 * header it was compiled against said. Build against any Open MPI 4.1 (mpicc), then run it with
 * the library to check on LD_LIBRARY_PATH: the run-time answer is the one that counts. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, len = 0;
  char lib[MPI_MAX_LIBRARY_VERSION_STRING];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Get_library_version(lib, &len);
  int header = -1, runtime = -1;
#if defined(MPIX_CUDA_AWARE_SUPPORT)
  header = MPIX_CUDA_AWARE_SUPPORT;
  runtime = MPIX_Query_cuda_support();
#endif
  if (rank == 0) {
    printf("library: %.*s\n", (int)strcspn(lib, "\n"), lib);
    printf("MPIX_CUDA_AWARE_SUPPORT (header at compile time) = %d\n", header);
    printf("MPIX_Query_cuda_support() (library at run time) = %d\n", runtime);
  }
  MPI_Finalize();
  return runtime == 1 ? 0 : 1;
}
