// Values read from HDF5 files ({file, dataset}): the files are written here with the HDF5 C API,
// the reader must find them next to the case file, refuse every bad dataset with a located
// message, and read back exactly the values written (float data widened to double).
#include <doctest/doctest.h>
#include <hdf5.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "case_reader.hpp"
#include "data_file.hpp"
#include "test_output_support.hpp"

namespace fs = std::filesystem;
using fdsolve::output::test::TempDir;

namespace {
// v[j][i] = 10 j + i + 0.5 on a [ny=3][nx=4] grid, except v[0][0] = 0.1, which only a double
// holds exactly: x is the fastest index, so v[1][2] is element 6.
const std::vector<double> kDoubles{0.1,  1.5,  2.5,  3.5,  10.5, 11.5,
                                   12.5, 13.5, 20.5, 21.5, 22.5, 23.5};
const std::vector<float> kFloats{0.1f,        -2.5f, 3.0e-3f, 1.0e30f,   -7.0f,  0.0f,
                                 1.0f / 3.0f, 6.5f,  8.25f,   -1.0e-20f, 100.0f, 42.0f};

// Writes a dataset of shape `dims` into the file at `path` (created when missing), with
// groups on the way created as needed. `dims` empty: a scalar dataset.
void write_dataset(const fs::path& path, const std::string& name, hid_t file_type, hid_t mem_type,
                   const std::vector<hsize_t>& dims, const void* values) {
  const hid_t file = fs::exists(path)
                         ? H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)
                         : H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  REQUIRE(file >= 0);
  const hid_t space = dims.empty()
                          ? H5Screate(H5S_SCALAR)
                          : H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  const hid_t links = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(links, 1);
  const hid_t data =
      H5Dcreate2(file, name.c_str(), file_type, space, links, H5P_DEFAULT, H5P_DEFAULT);
  REQUIRE(data >= 0);
  CHECK(H5Dwrite(data, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) >= 0);
  H5Dclose(data);
  H5Pclose(links);
  H5Sclose(space);
  H5Fclose(file);
}

// data/fields.h5 beside the case files, with good and bad datasets, and a file that is not
// HDF5.
void write_data(const TempDir& dir) {
  fs::create_directories(dir.path() / "data");
  const fs::path file = dir.path() / "data" / "fields.h5";
  write_dataset(file, "/u64", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {3, 4}, kDoubles.data());
  write_dataset(file, "/f32", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, {3, 4}, kFloats.data());
  write_dataset(file, "/group/deep", H5T_IEEE_F64BE, H5T_NATIVE_DOUBLE, {3, 4}, kDoubles.data());
  write_dataset(file, "/transposed", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {4, 3}, kDoubles.data());
  write_dataset(file, "/rank3", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {1, 3, 4}, kDoubles.data());
  const double one = 1.0;
  write_dataset(file, "/scalar", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {}, &one);
  const std::vector<int> ints(12, 7);
  write_dataset(file, "/ints", H5T_STD_I32LE, H5T_NATIVE_INT, {3, 4}, ints.data());
  const std::vector<unsigned short> shorts(12, 7);
  write_dataset(file, "/u16", H5T_STD_U16LE, H5T_NATIVE_USHORT, {3, 4}, shorts.data());
  const hid_t text = H5Tcopy(H5T_C_S1);
  H5Tset_size(text, 4);
  const std::string chars(48, 'a');
  write_dataset(file, "/text", text, text, {3, 4}, chars.data());
  H5Tclose(text);
  // 3D: v[k][j][i] = 100 k + 10 j + i on [nz=3][ny=3][nx=4].
  std::vector<double> volume;
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 4; ++i) volume.push_back(100.0 * k + 10.0 * j + i);
  write_dataset(file, "/volume", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {3, 3, 4}, volume.data());
  std::ofstream(dir.path() / "data" / "notes.h5") << "grid: not an HDF5 file\n";
}

// The case file `text` written into `dir` and read from there.
fdsolve::Case read_in(const TempDir& dir, const std::string& text) {
  std::ofstream(dir.path() / "case.yaml") << text;
  return fdsolve::read_case_file(dir / "case.yaml");
}

std::string error_in(const TempDir& dir, const std::string& text) {
  try {
    read_in(dir, text);
  } catch (const fdsolve::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

const std::string kGrid2 = "grid: {points: [4, 3]}\n";
}  // namespace

TEST_CASE("input: initial and source come from HDF5 files beside the case file") {
  TempDir dir;
  write_data(dir);
  const fdsolve::Case c = read_in(
      dir, kGrid2 +
               "problem: {equation: poisson, source: {file: data/fields.h5, dataset: /f32}}\n"
               "initial: {file: data/fields.h5, dataset: u64}\n");
  CHECK(c.initial.is_file());
  CHECK_FALSE(c.initial.is_constant());
  CHECK(c.initial.file == "data/fields.h5");
  CHECK(c.initial.dataset == "/u64");  // the root group's dataset, written with its '/'
  CHECK(c.initial.file_path == (dir.path() / "data" / "fields.h5").string());
  CHECK(c.problem.source.file_path == (dir.path() / "data" / "fields.h5").string());

  const std::vector<double> u = fdsolve::read_dataset_values(c.initial, c.grid);
  CHECK(u == kDoubles);
  CHECK(u[6] == 12.5);  // i = 2, j = 1
  const std::vector<double> f = fdsolve::read_dataset_values(c.problem.source, c.grid);
  REQUIRE(f.size() == kFloats.size());
  for (std::size_t n = 0; n < f.size(); ++n) {
    CAPTURE(n);
    CHECK(f[n] == static_cast<double>(kFloats[n]));  // widened exactly, not re-rounded
  }
  CHECK(f[0] != 0.1);
  CHECK(fdsolve::read_dataset_values(c.initial) == kDoubles);

  // The keys in either order; a dataset in a group, big-endian on disk; a float case.
  const fdsolve::Case g = read_in(
      dir, kGrid2 + "precision: float\ninitial: {dataset: /group/deep, file: data/fields.h5}\n");
  CHECK(fdsolve::read_dataset_values(g.initial, g.grid) == kDoubles);
}

TEST_CASE("input: a 3D dataset is [nz][ny][nx] with x fastest") {
  TempDir dir;
  write_data(dir);
  const fdsolve::Case c = read_in(dir,
                                  "grid: {points: [4, 3, 3]}\nproblem: {equation: heat}\n"
                                  "initial: {file: data/fields.h5, dataset: /volume}\n");
  const std::vector<double> v = fdsolve::read_dataset_values(c.initial, c.grid);
  REQUIRE(v.size() == 36);
  CHECK(v[(2 * 3 + 1) * 4 + 3] == 213.0);  // k = 2, j = 1, i = 3
  CHECK(v[(1 * 3 + 2) * 4 + 0] == 120.0);
  CHECK(v[35] == 223.0);
}

TEST_CASE("input: file values round-trip through to_yaml as written") {
  TempDir dir;
  write_data(dir);
  const fdsolve::Case c =
      read_in(dir, kGrid2 +
                       "problem: {equation: heat, source: {file: data/fields.h5, dataset: /f32}}\n"
                       "initial: {file: data/fields.h5, dataset: /u64}\n");
  const std::string yaml = fdsolve::to_yaml(c);
  CHECK(yaml.find("initial: {file: \"data/fields.h5\", dataset: \"/u64\"}") != std::string::npos);
  CHECK(yaml.find("source: {file: \"data/fields.h5\", dataset: \"/f32\"}") != std::string::npos);
  // Read back from a file in the same directory: the same values, resolved the same way.
  std::ofstream(dir.path() / "again.yaml") << yaml;
  const fdsolve::Case again = fdsolve::read_case_file(dir / "again.yaml");
  CHECK(again.initial == c.initial);
  CHECK(again.problem == c.problem);
  CHECK(again.initial.file_path == c.initial.file_path);
  CHECK(fdsolve::to_yaml(again) == yaml);
}

TEST_CASE("input: bad data files are refused, located at file or dataset") {
  TempDir dir;
  write_data(dir);
  const std::string where = dir / "case.yaml";
  // "initial: {file: data/fields.h5, dataset: " puts the file at column 17, the dataset at 42.
  const auto initial = [&](const std::string& dataset) {
    return error_in(dir, kGrid2 + "initial: {file: data/fields.h5, dataset: " + dataset + "}\n");
  };
  CHECK(initial("/missing") == where +
                                   ":2:42: initial.dataset: data/fields.h5 has no dataset "
                                   "/missing");
  CHECK(initial("/group") == where +
                                 ":2:42: initial.dataset: /group of data/fields.h5 is a "
                                 "group, not a dataset");
  CHECK(initial("/transposed") == where +
                                      ":2:42: initial.dataset: dataset /transposed of "
                                      "data/fields.h5 has shape [4, 3], the grid needs [3, "
                                      "4] ([ny, nx])");
  CHECK(initial("/rank3") == where +
                                 ":2:42: initial.dataset: dataset /rank3 of data/fields.h5 "
                                 "has 3 dimensions, the grid needs 2 ([ny, nx])");
  CHECK(initial("/scalar") == where +
                                  ":2:42: initial.dataset: dataset /scalar of "
                                  "data/fields.h5 has 0 dimensions, the grid needs 2 ([ny, "
                                  "nx])");
  CHECK(initial("/ints") == where +
                                ":2:42: initial.dataset: dataset /ints of data/fields.h5 "
                                "holds 32-bit integers, expected 32- or 64-bit floats");
  CHECK(initial("/u16") == where +
                               ":2:42: initial.dataset: dataset /u16 of data/fields.h5 "
                               "holds 16-bit unsigned integers, expected 32- or 64-bit "
                               "floats");
  CHECK(initial("/text") == where +
                                ":2:42: initial.dataset: dataset /text of data/fields.h5 "
                                "holds strings, expected 32- or 64-bit floats");
  CHECK(error_in(dir, kGrid2 + "initial: {file: data/notes.h5, dataset: /u}\n") ==
        where + ":2:17: initial.file: data/notes.h5 is not an HDF5 file");
  // Relative to the case file's directory, where there is no data/none.h5.
  CHECK(error_in(dir, kGrid2 + "initial: {file: data/none.h5, dataset: /u}\n") ==
        where + ":2:17: initial.file: cannot open data/none.h5: no such file");
  // 3D messages name the axes [nz, ny, nx].
  CHECK(error_in(dir,
                 "grid: {points: [4, 3, 3]}\ninitial: {file: data/fields.h5, dataset: "
                 "/u64}\n") ==
        where +
            ":2:42: initial.dataset: dataset /u64 of data/fields.h5 has 2 dimensions, the "
            "grid needs 3 ([nz, ny, nx])");
  CHECK(error_in(dir,
                 "grid: {points: [4, 3, 4]}\ninitial: {file: data/fields.h5, dataset: "
                 "/volume}\n") ==
        where +
            ":2:42: initial.dataset: dataset /volume of data/fields.h5 has shape [3, 3, 4], "
            "the grid needs [4, 3, 4] ([nz, ny, nx])");
  CHECK(error_in(dir, kGrid2 + "problem: {equation: heat, source: {file: data/fields.h5, "
                               "dataset: /ints}}\n") ==
        where +
            ":2:67: problem.source.dataset: dataset /ints of data/fields.h5 holds 32-bit "
            "integers, expected 32- or 64-bit floats");
}

TEST_CASE("input: a file given with --set is taken from the working directory") {
  TempDir dir;
  write_data(dir);
  const fs::path data = dir.path() / "data" / "fields.h5";
  const std::string relative = fs::relative(data).string();
  const fdsolve::Case c = fdsolve::parse_case(kGrid2, "elsewhere/case.yaml",
                                              {"initial={file: " + relative + ", dataset: /u64}"});
  CHECK(c.initial.file == relative);
  CHECK(c.initial.file_path == relative);
  CHECK(fdsolve::read_dataset_values(c.initial, c.grid) == kDoubles);
  // The same text in the file is taken from the case file's directory.
  const fdsolve::Case in_file = fdsolve::parse_case(
      kGrid2 + "initial: {file: data/fields.h5, dataset: /u64}\n", (dir / "case.yaml"));
  CHECK(in_file.initial.file_path == data.string());
  // An absolute path stays as it is.
  const fdsolve::Case absolute = fdsolve::parse_case(
      kGrid2 + "initial: {file: \"" + data.string() + "\", dataset: /u64}\n", "x/case.yaml");
  CHECK(absolute.initial.file_path == data.string());
}

TEST_CASE("input: read_dataset_values checks the file again when it is read") {
  TempDir dir;
  write_data(dir);
  const fdsolve::Case c = read_in(dir, kGrid2 + "initial: {file: data/fields.h5, dataset: /u64}\n");
  // The file changes between `check` and `run`: the read refuses the new shape.
  fs::remove(dir.path() / "data" / "fields.h5");
  write_dataset(dir.path() / "data" / "fields.h5", "/u64", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                {4, 3}, kDoubles.data());
  CHECK_THROWS_WITH_AS(fdsolve::read_dataset_values(c.initial, c.grid),
                       doctest::Contains("has shape [4, 3], the grid needs [3, 4] ([ny, nx])"),
                       fdsolve::InputError);
  // Without the grid, the dataset's own shape is read.
  CHECK(fdsolve::read_dataset_values(c.initial) == kDoubles);
  fs::remove(dir.path() / "data" / "fields.h5");
  const std::string missing = "cannot open " + c.initial.file_path + ": no such file";
  CHECK_THROWS_WITH_AS(fdsolve::read_dataset_values(c.initial), missing.c_str(),
                       fdsolve::InputError);
  fdsolve::Value number;
  CHECK_THROWS_AS(fdsolve::read_dataset_values(number), fdsolve::InputError);
}

TEST_CASE("input: probing a file leaves HDF5's error printing as it was") {
  TempDir dir;
  write_data(dir);
  H5E_auto2_t before = nullptr;
  void* before_data = nullptr;
  H5Eget_auto2(H5E_DEFAULT, &before, &before_data);
  CHECK(fdsolve::check_dataset((dir.path() / "data" / "fields.h5").string(), "f.h5", "/missing",
                               {3, 4})
            .part == fdsolve::DatasetProblem::Part::Dataset);
  H5E_auto2_t after = nullptr;
  void* after_data = nullptr;
  H5Eget_auto2(H5E_DEFAULT, &after, &after_data);
  CHECK((after == before));
  CHECK((after_data == before_data));
}
