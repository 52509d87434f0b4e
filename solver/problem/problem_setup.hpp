// Turns a Case into what the kernels need: the field layout, the box of updated nodes, the
// initial field with its Dirichlet boundary values, and the source field.
#pragma once

#include <vector>

#include "case.hpp"
#include "layout.hpp"
#include "parallel/subdomain.hpp"
#include "snapshot.hpp"

namespace fdsolve {

/// Grid geometry for output: points, origin and spacing per axis.
output::GridMeta grid_meta(const Case& c);

/// The layout of one field of the case, rows aligned for values of `value_size` bytes: of the
/// whole grid, or of the nodes `sub` owns.
Layout field_layout(const Case& c, std::size_t value_size);
Layout field_layout(const Case& c, std::size_t value_size, const Subdomain& sub);

/// The nodes a sweep updates: all owned nodes but the Dirichlet faces (Dirichlet wins where
/// faces meet, so the updated set is always a box).
Box update_box(const Case& c);
/// The same on the nodes `sub` owns, in its node indices: Dirichlet faces are left out only
/// where they are physical faces of `sub`.
Box update_box(const Case& c, const Subdomain& sub);

/// The owned nodes of one face (Face order: x_min, x_max, y_min, ...).
Box face_box(const Layout& layout, int face);

/// The initial field in `layout`: `initial` everywhere, then each face's Dirichlet value in
/// face order (x_min, x_max, y_min, ...) so that shared edges and corners take the later
/// face's value. The held values of problem.fixed are the resolved medium's
/// (op::write_held_values).
template <typename T>
std::vector<T> initial_field(const Case& c, const Layout& layout);
/// The same on the nodes `sub` owns (`layout` from field_layout(c, size, sub)): values at the
/// global coordinates, Dirichlet values on its physical faces only.
template <typename T>
std::vector<T> initial_field(const Case& c, const Layout& layout, const Subdomain& sub);

/// Whether the source varies from node to node (an expression or data, or the ambient term of a
/// Robin face: load_source adds it), so that the sweep reads a source field rather than a
/// constant.
bool has_source_field(const Case& c);

/// The source (f of Poisson, q of heat) at time t, times `scale`, at every owned node (zero
/// where the equation has none).
template <typename T>
std::vector<T> source_values(const Case& c, const Layout& layout, double scale = 1.0,
                             double t = 0.0);
template <typename T>
std::vector<T> source_values(const Case& c, const Layout& layout, const Subdomain& sub,
                             double scale, double t);

/// `value` at time t on the nodes of `box`, dense in C order (x fastest): Dirichlet face values
/// for write_box.
template <typename T>
std::vector<T> box_values(const Case& c, const Value& value, const Box& box, double t);
/// The same for `box` in the node indices of `sub`.
template <typename T>
std::vector<T> box_values(const Case& c, const Value& value, const Box& box, double t,
                          const Subdomain& sub);
/// The same written to `out` (box.cells() elements) on all threads, rows (j, k) split as
/// op::for_rows splits them, so that the threads that fill an uninitialised array touch its
/// pages first.
template <typename T>
void box_values(const Case& c, const Value& value, const Box& box, double t, const Subdomain& sub,
                T* out);

/// The physical coordinate of node index i on `axis` (i may be -1 or n: the halo).
double node_coordinate(const Case& c, int axis, index_t i);

/// Copies the owned nodes of `field` into a dense C-ordered array ([nz][ny][nx]).
template <typename T>
std::vector<T> owned_dense(const std::vector<T>& field, const Layout& layout);
/// The same into `dense` (resized to the owned nodes; its memory reused when it already is).
template <typename T>
void copy_owned(const std::vector<T>& field, const Layout& layout, std::vector<T>& dense);
/// The same from a padded array of `layout.size` values; `all_threads` false copies on the
/// calling thread alone (the background writer, beside a loop using every core).
template <typename T>
void copy_owned(const T* field, const Layout& layout, std::vector<T>& dense, bool all_threads);

}  // namespace fdsolve
