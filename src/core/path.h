/**
 * @file path.h
 * @brief The longest file or directory path ionfront keeps (bytes, with the NUL).
 */
#ifndef IONF_PATH_H
#define IONF_PATH_H

#define IONF_PATH_MAX 1024

#endif /* IONF_PATH_H */
