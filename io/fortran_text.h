/**
 * @file fortran_text.h
 * @brief Numbers of Fortran-written text files (C2-Ray's source lists): one token as a
 *        double, Fortran's D exponents (1.0D+52) accepted.
 */
#ifndef IONF_FORTRAN_TEXT_H
#define IONF_FORTRAN_TEXT_H

/** 1 when the whole token `tok` reads as a double (*v), with E or D exponents; 0 when it
    does not (empty, too long, trailing characters, out of range). */
int fortran_text_double(const char *tok, double *v);

#endif /* IONF_FORTRAN_TEXT_H */
