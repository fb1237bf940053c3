#pragma once
// Mesh of one axis in price space: node 0 is S = 0 (where the PDE needs no boundary condition),
// the last node is S_max. Sinh stretching puts more nodes near `center` (reference or strike).
#include <string>
#include <vector>

namespace elsbench {

enum class MeshKind { Uniform, Sinh };

struct MeshSpec {
  MeshKind kind = MeshKind::Sinh;
  int nodes = 100;         // nodes on the axis, S = 0 and S_max included
  double s_max = 400;
  double center = 100;     // where sinh stretching concentrates nodes
  double density = 0.5;    // sinh scale as a fraction of center: smaller = more concentrated
  double face = 0;         // if > 0: a level put exactly on a cell face (midway between two nodes)
  double upper_face = 0;   // if above face's cell: a second level on a face (a lizard's barrier)
  double second_center = 0;   // if > 0: a second level where nodes concentrate (a knock-in barrier)
  double second_density = 0;  // its sinh scale as a fraction of second_center
  double third_center = 0;    // if > 0: a third such level (a near autocall date's barrier)
  double third_density = 0;   // its sinh scale as a fraction of third_center
};

std::vector<double> make_mesh(const MeshSpec& spec);
MeshKind parse_mesh_kind(const std::string& name);  // "uniform" | "sinh"
const char* to_string(MeshKind k);

}  // namespace elsbench
