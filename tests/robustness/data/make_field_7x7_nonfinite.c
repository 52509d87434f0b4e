/* tests/robustness/data/field_7x7_nonfinite.h5: /u [7][7] doubles, 0.5 everywhere but NaN at
   (i, j) = (4, 2) and +Inf at (i, j) = (1, 5) (C order: the NaN comes first). */
#include <hdf5.h>
#include <math.h>
int main(int argc, char** argv) {
  double u[7][7];
  for (int j = 0; j < 7; ++j) for (int i = 0; i < 7; ++i) u[j][i] = 0.5;
  u[2][4] = NAN; u[5][1] = INFINITY;
  hsize_t dims[2] = {7, 7};
  hid_t f = H5Fcreate(argv[1], H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  hid_t s = H5Screate_simple(2, dims, NULL);
  hid_t d = H5Dcreate2(f, "/u", H5T_IEEE_F64LE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, u);
  H5Dclose(d); H5Sclose(s); H5Fclose(f); return 0;
}
