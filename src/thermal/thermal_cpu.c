/**
 * @file thermal_cpu.c
 * @brief The thermal solve on the CPU (thermal.h): OpenMP over the range's elements,
 *        each element's rays in order by thermal_element_estimate (thermal_k.h), so that
 *        a result is the same with any thread count and any split of the range.
 */
#include "thermal/thermal.h"

#include "thermal/thermal_k.h"
#include "thermal/thermal_levels.h"

static ionf_err thermal_cpu_check_range(const struct thermal_setup *s,
                                        const struct thermal_range *r,
                                        const struct thermal_result *out) {
  int64_t cells = s->n[0] * s->n[1] * s->n[2];
  int64_t walls = thermal_wall_patches(s);
  IONF_CHECK(r->cell_first >= 0 && r->cell_count >= 0 && r->cell_first <= cells - r->cell_count,
             IONF_ERR_INTERNAL, "thermal: cells [%lld, +%lld) outside the grid's %lld",
             (long long)r->cell_first, (long long)r->cell_count, (long long)cells);
  IONF_CHECK(r->wall_first >= 0 && r->wall_count >= 0 && r->wall_first <= walls - r->wall_count,
             IONF_ERR_INTERNAL, "thermal: wall patches [%lld, +%lld) outside the %lld patches",
             (long long)r->wall_first, (long long)r->wall_count, (long long)walls);
  IONF_CHECK(r->cell_count == 0 || (out->q_w_per_m3 && out->q_sigma_w_per_m3), IONF_ERR_INTERNAL,
             "thermal: no arrays for the cells' results");
  IONF_CHECK(r->wall_count == 0 || (out->wall_q_w_per_m2 && out->wall_q_sigma_w_per_m2),
             IONF_ERR_INTERNAL, "thermal: no arrays for the walls' results");
  return IONF_OK;
}

ionf_err thermal_solve_cpu(const struct thermal_setup *s, const struct thermal_fields *f,
                           const struct thermal_range *r, struct thermal_result *out) {
  IONF_CALL(thermal_setup_check(s));
  IONF_CALL(thermal_cpu_check_range(s, r, out));
  struct thermal_levels lv;
  IONF_CALL(thermal_levels_build(s, f, &lv));
  struct thermal_view v;
  thermal_levels_view(s, f, &lv, &v);
  int64_t cells = s->n[0] * s->n[1] * s->n[2];
  int64_t total = r->cell_count + r->wall_count, steps = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : steps)
  for (int64_t i = 0; i < total; ++i) {
    struct thermal_estimate e;
    if (i < r->cell_count) {
      thermal_element_estimate(&v, r->cell_first + i, &e);
      out->q_w_per_m3[i] = e.value;
      out->q_sigma_w_per_m3[i] = e.sigma;
    } else {
      int64_t w = i - r->cell_count;
      thermal_element_estimate(&v, cells + r->wall_first + w, &e);
      out->wall_q_w_per_m2[w] = e.value;
      out->wall_q_sigma_w_per_m2[w] = e.sigma;
    }
    steps += e.steps;
  }
  out->rays_traced = total * s->rays_per_element;
  out->steps_traced = steps;
  thermal_levels_free(&lv);
  return IONF_OK;
}
