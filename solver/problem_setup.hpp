// Turns a Case into what the kernels need: the field layout, the box of updated nodes, the
// initial field with its Dirichlet boundary values, and the source field.
#pragma once

#include <vector>

#include "case.hpp"
#include "layout.hpp"
#include "snapshot.hpp"

namespace fdsolve {

/// Grid geometry for output: points, origin and spacing per axis.
output::GridMeta grid_meta(const Case& c);

/// The layout of one field of the case, rows aligned for values of `value_size` bytes.
Layout field_layout(const Case& c, std::size_t value_size);

/// The nodes a sweep updates: all owned nodes but the Dirichlet faces (Dirichlet wins where
/// faces meet, so the updated set is always a box).
Box update_box(const Case& c);

/// The initial field in `layout`: `initial` everywhere, then each face's Dirichlet value in
/// SPEC.md's face order so that shared edges and corners take the later face's value.
template <typename T>
std::vector<T> initial_field(const Case& c, const Layout& layout);

/// The source f, times `scale`, at every owned node (zero where the equation has none).
template <typename T>
std::vector<T> source_values(const Case& c, const Layout& layout, double scale = 1.0);

/// Copies the owned nodes of `field` into a dense C-ordered array ([nz][ny][nx]).
template <typename T>
std::vector<T> owned_dense(const std::vector<T>& field, const Layout& layout);

}  // namespace fdsolve
