/**
 * @file convert_cli.h
 * @brief `ionfront convert PARAMS.yml`: a pyC²Ray parameter file as an ionfront config,
 *        printed or written whole to -o FILE (src/config/convert_pyc2ray.h converts).
 */
#ifndef IONF_CONVERT_CLI_H
#define IONF_CONVERT_CLI_H

/** The command's arguments after "convert"; returns the exit code. */
int convert_cli_main(int argc, char **argv);

#endif /* IONF_CONVERT_CLI_H */
