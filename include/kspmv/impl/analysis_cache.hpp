#pragma once
// Where a CsrMatrix keeps what its first automatic spmv learned about its structure. The cache
// is created with the matrix and shared by its copies, as the Views are; what an entry holds is
// the analysis' business (impl/csr_analysis.hpp), so this header stays free of kernels.

#include <memory>
#include <mutex>
#include <typeindex>
#include <utility>
#include <vector>

namespace kspmv {
namespace impl {

class AnalysisCache {
 public:
  // The entry of type Entry (one per type: the type names the execution space it was made
  // for), or a new one from build() if there is none or is_current(entry) says it no longer
  // describes the matrix. build() runs under the lock, so concurrent first calls make one
  // entry; an exception from it leaves the cache as it was.
  template <class Entry, class IsCurrent, class Build>
  std::shared_ptr<const Entry> find_or_build(IsCurrent&& is_current, Build&& build) {
    const std::type_index key(typeid(Entry));
    std::lock_guard<std::mutex> lock(m_mutex);
    for (Item& item : m_items) {
      if (item.key != key) continue;
      auto entry = std::static_pointer_cast<const Entry>(item.value);
      if (entry && is_current(*entry)) return entry;
      entry.reset();
      item.value.reset();  // free a stale entry's storage before building its replacement
      std::shared_ptr<const Entry> fresh = build();
      item.value = fresh;
      return fresh;
    }
    std::shared_ptr<const Entry> fresh = build();
    m_items.push_back({key, fresh});
    return fresh;
  }

  // The entry of type Entry if there is one, without building it.
  template <class Entry>
  std::shared_ptr<const Entry> find() const {
    const std::type_index key(typeid(Entry));
    std::lock_guard<std::mutex> lock(m_mutex);
    for (const Item& item : m_items)
      if (item.key == key) return std::static_pointer_cast<const Entry>(item.value);
    return nullptr;
  }

  // Forgets every entry: the next automatic spmv analyses again.
  void clear() {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_items.clear();
  }

 private:
  struct Item {
    std::type_index key;
    std::shared_ptr<const void> value;
  };
  mutable std::mutex m_mutex;
  std::vector<Item> m_items;
};

}  // namespace impl
}  // namespace kspmv
