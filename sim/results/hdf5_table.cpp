#include "sim/results/hdf5_table.hpp"

#include <algorithm>

#include "sim/core/error.hpp"
#include "sim/results/parameter_value.hpp"

namespace lightcode::results::h5 {
namespace {

constexpr size_t kCompressAbove = 4096;        // bytes; smaller tables stay contiguous
constexpr size_t kChunkBytes = 64 * 1024;  // small enough for malloc to reuse, not mmap
constexpr unsigned kDeflateLevel = 1;

herr_t collect_message(unsigned /*depth*/, const H5E_error2_t* entry, void* data) {
  auto* messages = static_cast<std::vector<std::string>*>(data);
  if (entry->desc && *entry->desc) messages->emplace_back(entry->desc);
  return 0;
}

size_t memory_size(const FieldSpec& field) {
  switch (field.kind) {
    case Kind::str: return field.width > 0 ? field.width : sizeof(const char*);
    case Kind::i32: return sizeof(int32_t);
    case Kind::i64: return sizeof(int64_t);
    case Kind::f64: return sizeof(double);
  }
  return 0;
}

// UTF-8; variable-length when width is 0, else fixed-width and NUL-padded (not terminated:
// a cell of exactly `width` bytes is the whole string).
Id string_type(size_t width = 0) {
  Id type(H5Tcopy(H5T_C_S1), H5Tclose, "copy string type");
  check(H5Tset_size(type.get(), width > 0 ? width : H5T_VARIABLE), "size string type");
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "make string type UTF-8");
  if (width > 0) check(H5Tset_strpad(type.get(), H5T_STR_NULLPAD), "pad string type");
  return type;
}

// Little-endian on disk regardless of host; native in memory (HDF5 converts).
hid_t atom(Kind kind, bool on_disk) {
  switch (kind) {
    case Kind::i32: return on_disk ? H5T_STD_I32LE : H5T_NATIVE_INT32;
    case Kind::i64: return on_disk ? H5T_STD_I64LE : H5T_NATIVE_INT64;
    case Kind::f64: return on_disk ? H5T_IEEE_F64LE : H5T_NATIVE_DOUBLE;
    case Kind::str: break;
  }
  return -1;
}

bool is_variable_string(hid_t type) {
  return H5Tget_class(type) == H5T_STRING && H5Tis_variable_str(type) > 0;
}

std::string read_string(hid_t attribute, const std::string& name) {
  Id file_type(H5Aget_type(attribute), H5Tclose, "get type of attribute '" + name + "'");
  if (!is_variable_string(file_type.get())) {
    throw Error("attribute '" + name + "' is not a variable-length string");
  }
  Id type = string_type();
  char* text = nullptr;
  check(H5Aread(attribute, type.get(), &text), "read attribute '" + name + "'");
  std::string value = text ? text : "";
  H5free_memory(text);
  return value;
}

Id open_attribute(hid_t object, const char* name) {
  const htri_t exists = H5Aexists(object, name);
  if (exists < 0) fail(std::string("look up attribute '") + name + "'");
  if (exists == 0) throw Error(std::string("missing attribute '") + name + "'");
  return Id(H5Aopen(object, name, H5P_DEFAULT), H5Aclose,
            std::string("open attribute '") + name + "'");
}

Id scalar_space() { return Id(H5Screate(H5S_SCALAR), H5Sclose, "create scalar dataspace"); }

// HDF5 callocs a type-conversion and a background buffer of this size on every H5Dread and
// H5Dwrite (1 MiB each by default): for thousands of small tables that memset was 90 % of the
// time. Size them to the table instead, capped at the default.
Id transfer_plist(const Layout& layout, hid_t file_type, size_t rows) {
  constexpr size_t kDefault = size_t{1} << 20;
  // A variable-length string is 8 bytes in memory but 16 in HDF5's disk form, hence the 2.
  const size_t element = 2 * std::max(layout.row_size(), H5Tget_size(file_type));
  const size_t size = std::max(element, std::min(kDefault, element * std::max<size_t>(rows, 1)));
  Id plist(H5Pcreate(H5P_DATASET_XFER), H5Pclose, "create transfer property list");
  check(H5Pset_buffer(plist.get(), size, nullptr, nullptr), "size conversion buffer");
  return plist;
}

}  // namespace

void fail(const std::string& what) {
  std::vector<std::string> messages;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, collect_message, &messages);
  H5Eclear2(H5E_DEFAULT);
  // Walked downward, the first message is the API call's and the last is the root cause
  // (e.g. "unable to open file: name = ..., errno = 2, ..."); the middle is library plumbing.
  std::string text = "cannot " + what;
  if (!messages.empty()) text += ": " + messages.front();
  if (messages.size() > 1) text += " (" + messages.back() + ")";
  throw Error(text);
}

void check(herr_t status, const std::string& what) {
  if (status < 0) fail(what);
}

Id::Id(hid_t id, Closer closer, const std::string& what) : id_(id), closer_(closer) {
  if (id < 0) fail(what);
}

Id::~Id() {
  if (id_ >= 0 && closer_) closer_(id_);
}

Id::Id(Id&& other) noexcept : id_(other.id_), closer_(other.closer_) { other.id_ = -1; }

Id& Id::operator=(Id&& other) noexcept {
  if (this != &other) {
    if (id_ >= 0 && closer_) closer_(id_);
    id_ = other.id_;
    closer_ = other.closer_;
    other.id_ = -1;
  }
  return *this;
}

void Id::close() {
  if (id_ < 0) return;
  const hid_t id = id_;
  id_ = -1;
  if (closer_ && closer_(id) < 0) fail("close HDF5 object");
}

QuietErrors::QuietErrors() {
  H5Eget_auto2(H5E_DEFAULT, &saved_func_, &saved_data_);
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

QuietErrors::~QuietErrors() { H5Eset_auto2(H5E_DEFAULT, saved_func_, saved_data_); }

Layout::Layout(std::vector<FieldSpec> fields) : fields_(std::move(fields)) {
  std::vector<Id> text;  // one string type per string field (widths differ)
  size_t packed = 0;
  for (const FieldSpec& field : fields_) {
    const size_t size = memory_size(field);
    const size_t align = field.kind == Kind::str && field.width > 0 ? 1 : size;
    row_size_ = (row_size_ + align - 1) / align * align;  // natural alignment in memory
    offsets_.push_back(row_size_);
    row_size_ += size;
    if (field.kind == Kind::str) text.push_back(string_type(field.width));
    packed += field.kind == Kind::str ? H5Tget_size(text.back().get())
                                      : H5Tget_size(atom(field.kind, true));
  }
  row_size_ = std::max<size_t>((row_size_ + 7) / 8 * 8, 8);
  memory_type_ = Id(H5Tcreate(H5T_COMPOUND, row_size_), H5Tclose, "create compound type");
  file_type_ = Id(H5Tcreate(H5T_COMPOUND, std::max<size_t>(packed, 1)), H5Tclose,
                  "create compound type");
  size_t disk_offset = 0;
  size_t next_text = 0;
  for (size_t i = 0; i < fields_.size(); ++i) {
    const FieldSpec& field = fields_[i];
    const bool is_text = field.kind == Kind::str;
    const hid_t text_type = is_text ? text[next_text++].get() : -1;
    check(H5Tinsert(memory_type_.get(), field.name.c_str(), offsets_[i],
                    is_text ? text_type : atom(field.kind, false)),
          "add field '" + field.name + "'");
    const hid_t disk = is_text ? text_type : atom(field.kind, true);
    check(H5Tinsert(file_type_.get(), field.name.c_str(), disk_offset, disk),
          "add field '" + field.name + "'");
    disk_offset += H5Tget_size(disk);
  }
}

Id file_create_plist() {
  Id plist(H5Pcreate(H5P_FILE_CREATE), H5Pclose, "create file property list");
  check(H5Pset_obj_track_times(plist.get(), false), "disable time tracking");
  return plist;
}

Id group_create_plist() {
  Id plist(H5Pcreate(H5P_GROUP_CREATE), H5Pclose, "create group property list");
  check(H5Pset_obj_track_times(plist.get(), false), "disable time tracking");
  const unsigned order = H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED;
  check(H5Pset_link_creation_order(plist.get(), order), "track link creation order");
  check(H5Pset_attr_creation_order(plist.get(), order), "track attribute creation order");
  return plist;
}

Id dataset_create_plist() {
  Id plist(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "create dataset property list");
  check(H5Pset_obj_track_times(plist.get(), false), "disable time tracking");
  return plist;
}

void write_table(hid_t parent, const char* name, const Layout& layout,
                 const std::vector<unsigned char>& buffer, size_t rows, bool compress) {
  const std::string what = std::string("dataset '") + name + "'";
  const hsize_t dims[1] = {rows};
  Id space(H5Screate_simple(1, dims, nullptr), H5Sclose, "create dataspace for " + what);
  Id plist = dataset_create_plist();
  const size_t row_bytes = H5Tget_size(layout.file_type());
  if (compress && rows * row_bytes > kCompressAbove) {
    // Chunks well inside HDF5's 1 MiB chunk cache. Level 1: on GPT-2-sized task tables
    // level 4 saved only ~4 % of the bytes.
    const hsize_t chunk[1] = {std::clamp<hsize_t>(kChunkBytes / row_bytes, 1, rows)};
    check(H5Pset_chunk(plist.get(), 1, chunk), "chunk " + what);
    check(H5Pset_shuffle(plist.get()), "shuffle " + what);
    check(H5Pset_deflate(plist.get(), kDeflateLevel), "compress " + what);
  }
  Id set(H5Dcreate2(parent, name, layout.file_type(), space.get(), H5P_DEFAULT, plist.get(),
                    H5P_DEFAULT),
         H5Dclose, "create " + what);
  if (rows > 0) {
    Id transfer = transfer_plist(layout, layout.file_type(), rows);
    check(H5Dwrite(set.get(), layout.memory_type(), H5S_ALL, H5S_ALL, transfer.get(),
                   buffer.data()),
          "write " + what);
  }
  set.close();
}

AppendTable::AppendTable(hid_t parent, const char* name, const Layout& layout, size_t chunk_rows)
    : layout_(&layout), what_(std::string("dataset '") + name + "'") {
  for (const FieldSpec& field : layout.fields()) {
    if (field.kind == Kind::str && field.width == 0) throw Error(what_ + ": an appended table's strings are fixed-width");
  }
  const hsize_t dims[1] = {0};
  const hsize_t most[1] = {H5S_UNLIMITED};
  Id space(H5Screate_simple(1, dims, most), H5Sclose, "create dataspace for " + what_);
  Id plist = dataset_create_plist();
  const hsize_t chunk[1] = {std::max<hsize_t>(chunk_rows, 1)};
  check(H5Pset_chunk(plist.get(), 1, chunk), "chunk " + what_);
  check(H5Pset_shuffle(plist.get()), "shuffle " + what_);
  check(H5Pset_deflate(plist.get(), kDeflateLevel), "compress " + what_);
  set_ = Id(H5Dcreate2(parent, name, layout.file_type(), space.get(), H5P_DEFAULT, plist.get(), H5P_DEFAULT),
            H5Dclose, "create " + what_);
  transfer_ = transfer_plist(layout, layout.file_type(), chunk_rows);
}

void AppendTable::append(const unsigned char* buffer, size_t rows) {
  if (rows == 0) return;
  const hsize_t size[1] = {rows_ + rows};
  check(H5Dset_extent(set_.get(), size), "extend " + what_);
  Id file_space(H5Dget_space(set_.get()), H5Sclose, "get dataspace of " + what_);
  const hsize_t start[1] = {rows_};
  const hsize_t count[1] = {rows};
  check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr), "select rows of " + what_);
  Id memory_space(H5Screate_simple(1, count, nullptr), H5Sclose, "create dataspace");
  check(H5Dwrite(set_.get(), layout_->memory_type(), memory_space.get(), file_space.get(), transfer_.get(), buffer),
        "write " + what_);
  rows_ += rows;
}

TableData::TableData(Layout layout, size_t rows)
    : layout_(std::move(layout)), rows_(rows), buffer_(rows * layout_.row_size(), 0) {}

TableData::~TableData() {
  // Strings were allocated by HDF5 while reading; a failed read leaves null pointers, which
  // reclaiming skips.
  if (filled_ && rows_ > 0) {
    H5Dvlen_reclaim(layout_.memory_type(), space_.get(), H5P_DEFAULT, buffer_.data());
  }
}

std::unique_ptr<TableData> read_table(hid_t parent, const char* name,
                                      std::vector<FieldSpec> wanted) {
  const std::string what = std::string("dataset '") + name + "'";
  const htri_t exists = H5Lexists(parent, name, H5P_DEFAULT);
  if (exists < 0) fail("look up " + what);
  if (exists == 0) throw Error("missing " + what);
  Id set(H5Dopen2(parent, name, H5P_DEFAULT), H5Dclose, "open " + what);
  Id type(H5Dget_type(set.get()), H5Tclose, "get type of " + what);
  if (H5Tget_class(type.get()) != H5T_COMPOUND) throw Error(what + " is not a compound table");
  for (FieldSpec& field : wanted) {
    const int index = H5Tget_member_index(type.get(), field.name.c_str());
    if (index < 0) {
      H5Eclear2(H5E_DEFAULT);
      throw Error(what + " has no field '" + field.name + "'");
    }
    Id member(H5Tget_member_type(type.get(), static_cast<unsigned>(index)), H5Tclose,
              "get type of field '" + field.name + "'");
    const H5T_class_t kind = H5Tget_class(member.get());
    const bool is_text = kind == H5T_STRING;
    if ((field.kind == Kind::str) != is_text ||
        (!is_text && kind != H5T_INTEGER && kind != H5T_FLOAT)) {
      throw Error(what + " field '" + field.name + "' has the wrong type");
    }
    if (is_text) field.width = is_variable_string(member.get()) ? 0 : H5Tget_size(member.get());
  }
  Id file_space(H5Dget_space(set.get()), H5Sclose, "get dataspace of " + what);
  if (H5Sget_simple_extent_ndims(file_space.get()) != 1) {
    throw Error(what + " is not one-dimensional");
  }
  hsize_t dims[1] = {0};
  check(H5Sget_simple_extent_dims(file_space.get(), dims, nullptr), "get size of " + what);
  auto out = std::make_unique<TableData>(Layout(std::move(wanted)), static_cast<size_t>(dims[0]));
  if (out->rows_ == 0) return out;
  const Layout& layout = out->layout_;
  out->space_ = Id(H5Screate_simple(1, dims, nullptr), H5Sclose, "create dataspace");
  out->filled_ = true;
  Id transfer = transfer_plist(layout, type.get(), out->rows_);
  check(H5Dread(set.get(), layout.memory_type(), H5S_ALL, H5S_ALL, transfer.get(),
                out->buffer_.data()),
        "read " + what);
  return out;
}

void write_string_attribute(hid_t object, const char* name, const std::string& value) {
  Id type = string_type();
  Id space = scalar_space();
  Id attribute(H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
               H5Aclose, std::string("create attribute '") + name + "'");
  const char* text = value.c_str();
  check(H5Awrite(attribute.get(), type.get(), &text),
        std::string("write attribute '") + name + "'");
}

void write_int_attribute(hid_t object, const char* name, int64_t value) {
  Id space = scalar_space();
  Id attribute(H5Acreate2(object, name, H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
               H5Aclose, std::string("create attribute '") + name + "'");
  check(H5Awrite(attribute.get(), H5T_NATIVE_INT64, &value),
        std::string("write attribute '") + name + "'");
}

void write_double_attribute(hid_t object, const char* name, double value) {
  Id space = scalar_space();
  Id attribute(H5Acreate2(object, name, H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
               H5Aclose, std::string("create attribute '") + name + "'");
  check(H5Awrite(attribute.get(), H5T_NATIVE_DOUBLE, &value), std::string("write attribute '") + name + "'");
}

std::string read_string_attribute(hid_t object, const char* name) {
  Id attribute = open_attribute(object, name);
  return read_string(attribute.get(), name);
}

int64_t read_int_attribute(hid_t object, const char* name) {
  Id attribute = open_attribute(object, name);
  Id type(H5Aget_type(attribute.get()), H5Tclose, "get attribute type");
  if (H5Tget_class(type.get()) != H5T_INTEGER) {
    throw Error(std::string("attribute '") + name + "' is not an integer");
  }
  int64_t value = 0;
  check(H5Aread(attribute.get(), H5T_NATIVE_INT64, &value),
        std::string("read attribute '") + name + "'");
  return value;
}

std::vector<std::pair<std::string, std::string>> read_attributes_as_text(hid_t object) {
  H5O_info_t info;
  check(H5Oget_info2(object, &info, H5O_INFO_NUM_ATTRS), "count attributes");
  std::vector<std::pair<std::string, std::string>> out;
  for (hsize_t i = 0; i < info.num_attrs; ++i) {
    Id attribute(H5Aopen_by_idx(object, ".", H5_INDEX_CRT_ORDER, H5_ITER_INC, i, H5P_DEFAULT,
                                H5P_DEFAULT),
                 H5Aclose, "open attribute by creation order");
    const ssize_t length = H5Aget_name(attribute.get(), 0, nullptr);
    if (length < 0) fail("get attribute name");
    std::string name(static_cast<size_t>(length) + 1, '\0');
    if (H5Aget_name(attribute.get(), name.size(), name.data()) < 0) fail("get attribute name");
    name.resize(static_cast<size_t>(length));
    Id type(H5Aget_type(attribute.get()), H5Tclose, "get type of attribute '" + name + "'");
    std::string value;
    if (H5Tget_class(type.get()) == H5T_INTEGER) {
      int64_t v = 0;
      check(H5Aread(attribute.get(), H5T_NATIVE_INT64, &v), "read attribute '" + name + "'");
      value = std::to_string(v);
    } else if (H5Tget_class(type.get()) == H5T_FLOAT) {
      double v = 0.0;
      check(H5Aread(attribute.get(), H5T_NATIVE_DOUBLE, &v), "read attribute '" + name + "'");
      value = canonical_real(v);
    } else {
      value = read_string(attribute.get(), name);
    }
    out.emplace_back(std::move(name), std::move(value));
  }
  return out;
}

}  // namespace lightcode::results::h5
