/**
 * @file problems.h
 * @brief Built-in problems: complete, commented YAML configs by name.
 */
#ifndef IONF_PROBLEMS_H
#define IONF_PROBLEMS_H

/** The YAML text of built-in problem `name`, or NULL if there is none. */
const char *problems_yaml(const char *name);
/** Number of built-in problems, and the i-th name / one-line description. */
int problems_count(void);
const char *problems_name(int i);
const char *problems_description(int i);
/** Name of the problem `ionfront run` runs with no config. */
#define PROBLEMS_DEFAULT "default"

#endif
