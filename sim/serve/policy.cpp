#include "sim/serve/policy.hpp"

#include <map>

namespace lightcode::serve {

const ParamTable& joined_table(const ParamTable& base, const ParamTable& chosen,
                               const std::vector<const ParamTable*>& others) {
  using Key = std::pair<std::pair<const ParamTable*, const ParamTable*>, std::vector<const ParamTable*>>;
  static std::map<Key, std::unique_ptr<ParamTable>> made;
  std::unique_ptr<ParamTable>& table = made[{{&base, &chosen}, others}];
  if (!table) {
    table = std::make_unique<ParamTable>(ParamTable{base.name + "." + chosen.name, chosen.doc, base.params});
    std::vector<const ParamTable*> order{&chosen};  // the chosen entry's rows win a shared key
    order.insert(order.end(), others.begin(), others.end());
    for (const ParamTable* t : order) {
      for (const Param& p : t->params) {
        if (!table->find(p.key)) table->params.push_back(p);
      }
    }
  }
  return *table;
}

}  // namespace lightcode::serve
