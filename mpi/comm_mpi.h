/**
 * @file comm_mpi.h
 * @brief The MPI communicator every collective of ionfront uses (mpi.h needed).
 *
 * MPI_COMM_WORLD for the command line; the communicator a library caller passed to
 * ionf_engine_create_* (comm_attach) otherwise.  Kept apart from comm.h so that the
 * files that never call MPI themselves need no mpi.h.
 */
#ifndef IONF_COMM_MPI_H
#define IONF_COMM_MPI_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif
/** The engine's communicator (MPI_COMM_WORLD unless comm_attach was given another). */
MPI_Comm comm_mpi(void);
#ifdef __cplusplus
}
#endif

#endif
