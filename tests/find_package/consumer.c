/* Creates a small Test 1 through the installed libionfront, steps once and prints the
   mean ionized fraction: what a coupled code does.  usage: consumer OUTPUT_DIR */
#include <stdio.h>

#include <ionfront.h>

int main(int argc, char **argv) {
  char out[1100];
  snprintf(out, sizeof out, "output.directory='%s'", argc > 1 ? argv[1] : "consumer_out");
  const char *sets[] = {"grid.N=8", "time.dt=10 Myr", "time.t_end=10 Myr", "time.outputs=[10 Myr]",
                        "raytracing.backend=cpu", out};
  ionf_engine *e = NULL;
  if (ionf_engine_create_builtin("iliev1", sets, 6, IONF_COMM_WORLD, &e) != IONF_STATUS_OK) {
    fprintf(stderr, "consumer: %s\n", ionf_last_error_message(NULL));
    return 1;
  }
  double *x = NULL;
  int64_t dims[3];
  if (ionf_engine_step(e, 3.15576e14, NULL) != IONF_STATUS_OK ||
      ionf_engine_field(e, "x_HII", &x, dims) != IONF_STATUS_OK) {
    fprintf(stderr, "consumer: %s\n", ionf_last_error_message(e));
    return 1;
  }
  double sum = 0.0;
  for (int64_t c = 0; c < dims[0] * dims[1] * dims[2]; ++c) sum += x[c];
  printf("libionfront %s: <x_HII> = %.6g after one step\n", ionf_version_string(),
         sum / (double)(dims[0] * dims[1] * dims[2]));
  ionf_engine_destroy(e);
  ionf_finalize();
  return sum > 0.0 ? 0 : 1;
}
