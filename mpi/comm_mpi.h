/**
 * @file comm_mpi.h
 * @brief The MPI communicator every collective of ionfront uses (mpi.h needed).
 *
 * ionfront's own duplicate (MPI_Comm_dup) of MPI_COMM_WORLD for the command line, or of
 * the communicator a library caller passed to ionf_engine_create_* (comm_attach), with
 * MPI_ERRORS_RETURN set on it.  Kept apart from comm.h so that the files that never
 * call MPI themselves need no mpi.h.
 */
#ifndef IONF_COMM_MPI_H
#define IONF_COMM_MPI_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif
/** The engine's communicator: the duplicate (MPI_COMM_WORLD before comm_init / comm_attach). */
MPI_Comm comm_mpi(void);
#ifdef __cplusplus
}
#endif

#endif
