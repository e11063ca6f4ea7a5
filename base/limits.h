/* Sizes every part of efsi agrees on: file names, labels, materials.  They bound fixed
 * arrays in the case configuration, the state and the output tables. */
#ifndef EFSI_LIMITS_H
#define EFSI_LIMITS_H

#define EFSI_PATH_LEN 4096       /* bytes of a file or directory name, with its NUL */
#define EFSI_NAME_LEN 128        /* bytes of case.name, with its NUL */
#define EFSI_MAX_MATERIALS 8     /* solid materials in one case */
#define EFSI_MATERIAL_NAME 32    /* bytes of a material's name ("rbc", "voxels3"), with its NUL */
#define EFSI_MAX_OWN_FIELDS 8    /* fields the materials of one case hold besides phi and B
                                    (src/case/material_models.h, MATERIAL_FIELDS) */

#endif
