/**
 * @file particle_output.h
 * @brief A particle run's records (internal to src/engine; the particle domain's ops):
 *        snapshots in the Gadget layout, checkpoints with the particle set's identity,
 *        and restarts that check it.
 */
#ifndef IONF_PARTICLE_OUTPUT_H
#define IONF_PARTICLE_OUTPUT_H

#include "engine/engine.h"

/** DIR/snapshot_NNNN.h5 of the current state (rank 0 writes).  Collective. */
IONF_NODISCARD ionf_err particle_write_output(struct engine *e, int index,
                                              struct engine_report *report);
/**
 * DIR/checkpoint.h5 of the current state (io/sph_checkpoint.h; rank 0 writes through a
 * temporary file renamed into place); next_index: the NNNN of the next snapshot.
 * Collective.
 */
IONF_NODISCARD ionf_err particle_write_checkpoint(struct engine *e, int next_index, char *path,
                                                  size_t size);
/**
 * Continue from checkpoint `path`: x_HII, T, time, step, next snapshot index.  Every
 * rank reads it (the state is replicated), so any rank count continues any
 * checkpoint.  Refused (naming the file and the mismatch) for other particles, tracer
 * settings, a grid checkpoint, or a checkpoint already at time.t_end.  Collective.
 */
IONF_NODISCARD ionf_err particle_restart(struct engine *e, const char *path);

#endif
