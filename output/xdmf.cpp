// Builds the XDMF text. XDMF lists dimensions, origin and spacing slowest axis first (z y x),
// the reverse of the case file's x y z, which is also the HDF5 datasets' [z][y][x] order.
#include "xdmf.hpp"

#include <sstream>

#include "format_number.hpp"

namespace fdsolve::output {
namespace {

std::string escape_xml(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// Values of `per_axis` (indexed x, y, z) joined slowest axis first, as XDMF expects, for all
// three axes: a 2D grid is written as one layer of a 3D mesh (see write_grid).
template <typename Array, typename Format>
std::string slowest_first(const Array& per_axis, Format format) {
  return format(per_axis[2]) + ' ' + format(per_axis[1]) + ' ' + format(per_axis[0]);
}

// ParaView's XDMF readers place a 2DCoRectMesh in the y-z plane (its two axes become VTK's y
// and z, checked with tools/paraview_check.py), so 2D grids are written as a 3DCoRectMesh with
// a single z layer at z = 0: x and y then keep their physical coordinates. The legacy reader
// also needs the attribute's Dimensions to match the topology ("1 ny nx"), even though the
// HDF5 dataset is [ny][nx]; both readers accept that, as the element count is the same.
void write_grid(std::ostringstream& xml, const GridMeta& grid, const XdmfEntry& entry,
                double time) {
  GridMeta mesh = grid;
  if (grid.dims == 2) {
    mesh.points[2] = 1;
    mesh.origin[2] = 0;
    mesh.spacing[2] = 1;  // unused with one layer, but XDMF needs a value
  }
  const auto count = [](std::int64_t n) { return std::to_string(n); };
  const std::string dims_text = slowest_first(mesh.points, count);
  const std::string vector_item =
      "<DataItem Format=\"XML\" NumberType=\"Float\" Precision=\"8\" Dimensions=\"3\">";
  xml << "      <Grid Name=\"it" << entry.iteration << "\" GridType=\"Uniform\">\n"
      << "        <Time Value=\"" << format_double(time) << "\"/>\n"
      << "        <Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"" << dims_text << "\"/>\n"
      << "        <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n"
      << "          " << vector_item << slowest_first(mesh.origin, format_double) << "</DataItem>\n"
      << "          " << vector_item << slowest_first(mesh.spacing, format_double)
      << "</DataItem>\n"
      << "        </Geometry>\n";
  for (const std::string& field : entry.fields) {
    // A vector field (flux) adds its component axis: ParaView draws it as arrows (Glyph).
    const int components = field_components(field, grid.dims);
    xml << "        <Attribute Name=\"" << escape_xml(field) << "\" AttributeType=\""
        << (components > 1 ? "Vector" : "Scalar") << "\" Center=\"Node\">\n"
        << "          <DataItem Format=\"HDF\" "
        << (stored_as_mask(field) ? std::string("NumberType=\"UChar\" Precision=\"1")
                                  : "NumberType=\"Float\" Precision=\"" +
                                        std::to_string(entry.precision_bytes))
        << "\" Dimensions=\"" << dims_text
        << (components > 1 ? " " + std::to_string(components) : std::string()) << "\">"
        << escape_xml(entry.file) << ":/" << escape_xml(field) << "</DataItem>\n"
        << "        </Attribute>\n";
  }
  xml << "      </Grid>\n";
}

}  // namespace

std::string make_xdmf(const std::string& name, const GridMeta& grid,
                      const std::vector<XdmfEntry>& entries) {
  std::ostringstream xml;
  xml << "<?xml version=\"1.0\" ?>\n"
      << "<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n"
      << "<Xdmf Version=\"3.0\" xmlns:xi=\"http://www.w3.org/2001/XInclude\">\n"
      << "  <Domain>\n"
      << "    <Grid Name=\"" << escape_xml(name)
      << "\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  // ParaView merges snapshots with equal times into one step, so when the times do not
  // increase (a steady solve may pass 0 for all) the iterations serve as time instead.
  bool increasing = true;
  for (size_t i = 1; i < entries.size(); ++i) {
    increasing = increasing && entries[i].time > entries[i - 1].time;
  }
  for (const XdmfEntry& entry : entries) {
    write_grid(xml, grid, entry, increasing ? entry.time : static_cast<double>(entry.iteration));
  }
  xml << "    </Grid>\n"
      << "  </Domain>\n"
      << "</Xdmf>\n";
  return xml.str();
}

}  // namespace fdsolve::output
