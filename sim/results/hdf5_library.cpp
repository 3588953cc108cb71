// The HDF5 C library, loaded when results are first read or written rather than at start-up.
// Linked directly, libhdf5 and what it needs (libcurl, OpenSSL, GnuTLS, Kerberos: 33 of the 41
// shared libraries `lightcode` had) cost 12 M instructions of loading and relocation in every
// process, `lightcode --help` and `hw show` included (docs/PERFORMANCE.md, "Whole-process
// costs"). Instead each HDF5 function the results code calls is defined here with hdf5.h's own
// signature (the compiler checks each against it) and forwards to the library, dlopen()ed on
// the first call; each global id (H5T_NATIVE_*, H5P_CLS_*) is copied from the library when
// H5open() runs, which HDF5's macros call before they read one (H5OPEN).
// A function the results code starts to call must be added here: the link fails until it is.
#include <dlfcn.h>
#include <hdf5.h>

#include <cstring>
#include <mutex>
#include <string>

#include "sim/core/error.hpp"

namespace {

void* library() {
  static void* const handle = [] {
    // The library's soname (CMake, from the HDF5 it found): the one the headers describe.
    void* h = ::dlopen(LIGHTCODE_HDF5_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!h) throw lightcode::Error(std::string("cannot load the HDF5 library: ") + ::dlerror());
    return h;
  }();
  return handle;
}

void* symbol(const char* name) {
  void* s = ::dlsym(library(), name);
  if (!s) throw lightcode::Error(std::string("the HDF5 library ") + LIGHTCODE_HDF5_LIBRARY + " lacks " + name);
  return s;
}

template <typename F>
F function(const char* name) {
  void* s = symbol(name);
  F f;
  static_assert(sizeof f == sizeof s, "a function pointer is a data pointer's size here (POSIX dlsym)");
  std::memcpy(&f, &s, sizeof f);
  return f;
}

void copy_id(const char* name, hid_t& id) { id = *static_cast<const hid_t*>(symbol(name)); }

}  // namespace

extern "C" {

// The library's global ids the headers name, each copied from libhdf5 when it is opened.
#define LC_HDF5_GLOBAL_IDS(X) \
  X(H5P_CLS_DATASET_CREATE_ID_g) \
  X(H5P_CLS_DATASET_XFER_ID_g) \
  X(H5P_CLS_FILE_ACCESS_ID_g) \
  X(H5P_CLS_FILE_CREATE_ID_g) \
  X(H5P_CLS_GROUP_CREATE_ID_g) \
  X(H5T_C_S1_g) \
  X(H5T_IEEE_F64LE_g) \
  X(H5T_NATIVE_DOUBLE_g) \
  X(H5T_NATIVE_INT32_g) \
  X(H5T_NATIVE_INT64_g) \
  X(H5T_STD_I32LE_g) \
  X(H5T_STD_I64LE_g)

#define LC_HDF5_DEFINE_ID(name) hid_t name = H5I_INVALID_HID;
LC_HDF5_GLOBAL_IDS(LC_HDF5_DEFINE_ID)

herr_t H5open(void) {
  static const auto real = function<decltype(&H5open)>("H5open");
  const herr_t status = real();
  static std::once_flag copied;
  std::call_once(copied, [] {
#define LC_HDF5_COPY_ID(name) copy_id(#name, name);
    LC_HDF5_GLOBAL_IDS(LC_HDF5_COPY_ID)
  });
  return status;
}

#define LC_HDF5_FORWARD(ret, name, params, args)                   \
  ret name params {                                                \
    static const auto real = function<decltype(&name)>(#name);    \
    return real args;                                              \
  }

LC_HDF5_FORWARD(herr_t, H5Aclose, (hid_t attr_id), (attr_id))
LC_HDF5_FORWARD(hid_t, H5Acreate2, (hid_t loc_id, const char *attr_name, hid_t type_id, hid_t space_id, hid_t acpl_id, hid_t aapl_id), (loc_id, attr_name, type_id, space_id, acpl_id, aapl_id))
LC_HDF5_FORWARD(htri_t, H5Aexists, (hid_t obj_id, const char *attr_name), (obj_id, attr_name))
LC_HDF5_FORWARD(ssize_t, H5Aget_name, (hid_t attr_id, size_t buf_size, char *buf), (attr_id, buf_size, buf))
LC_HDF5_FORWARD(hid_t, H5Aget_type, (hid_t attr_id), (attr_id))
LC_HDF5_FORWARD(hid_t, H5Aopen, (hid_t obj_id, const char *attr_name, hid_t aapl_id), (obj_id, attr_name, aapl_id))
LC_HDF5_FORWARD(hid_t, H5Aopen_by_idx, (hid_t loc_id, const char *obj_name, H5_index_t idx_type, H5_iter_order_t order, hsize_t n, hid_t aapl_id, hid_t lapl_id), (loc_id, obj_name, idx_type, order, n, aapl_id, lapl_id))
LC_HDF5_FORWARD(herr_t, H5Aread, (hid_t attr_id, hid_t type_id, void *buf), (attr_id, type_id, buf))
LC_HDF5_FORWARD(herr_t, H5Awrite, (hid_t attr_id, hid_t type_id, const void *buf), (attr_id, type_id, buf))
LC_HDF5_FORWARD(herr_t, H5Dclose, (hid_t dset_id), (dset_id))
LC_HDF5_FORWARD(hid_t, H5Dcreate2, (hid_t loc_id, const char *name, hid_t type_id, hid_t space_id, hid_t lcpl_id, hid_t dcpl_id, hid_t dapl_id), (loc_id, name, type_id, space_id, lcpl_id, dcpl_id, dapl_id))
LC_HDF5_FORWARD(hid_t, H5Dget_space, (hid_t dset_id), (dset_id))
LC_HDF5_FORWARD(herr_t, H5Dset_extent, (hid_t dset_id, const hsize_t size[]), (dset_id, size))
LC_HDF5_FORWARD(hid_t, H5Dget_type, (hid_t dset_id), (dset_id))
LC_HDF5_FORWARD(hid_t, H5Dopen2, (hid_t loc_id, const char *name, hid_t dapl_id), (loc_id, name, dapl_id))
LC_HDF5_FORWARD(herr_t, H5Dread, (hid_t dset_id, hid_t mem_type_id, hid_t mem_space_id, hid_t file_space_id, hid_t dxpl_id, void *buf), (dset_id, mem_type_id, mem_space_id, file_space_id, dxpl_id, buf))
LC_HDF5_FORWARD(herr_t, H5Dvlen_reclaim, (hid_t type_id, hid_t space_id, hid_t dxpl_id, void *buf), (type_id, space_id, dxpl_id, buf))
LC_HDF5_FORWARD(herr_t, H5Dwrite, (hid_t dset_id, hid_t mem_type_id, hid_t mem_space_id, hid_t file_space_id, hid_t dxpl_id, const void *buf), (dset_id, mem_type_id, mem_space_id, file_space_id, dxpl_id, buf))
LC_HDF5_FORWARD(herr_t, H5Eclear2, (hid_t err_stack), (err_stack))
LC_HDF5_FORWARD(herr_t, H5Eget_auto2, (hid_t estack_id, H5E_auto2_t *func, void **client_data), (estack_id, func, client_data))
LC_HDF5_FORWARD(herr_t, H5Eset_auto2, (hid_t estack_id, H5E_auto2_t func, void *client_data), (estack_id, func, client_data))
LC_HDF5_FORWARD(herr_t, H5Ewalk2, (hid_t err_stack, H5E_direction_t direction, H5E_walk2_t func, void *client_data), (err_stack, direction, func, client_data))
LC_HDF5_FORWARD(herr_t, H5Fclose, (hid_t file_id), (file_id))
LC_HDF5_FORWARD(hid_t, H5Fcreate, (const char *filename, unsigned flags, hid_t fcpl_id, hid_t fapl_id), (filename, flags, fcpl_id, fapl_id))
LC_HDF5_FORWARD(herr_t, H5Fflush, (hid_t object_id, H5F_scope_t scope), (object_id, scope))
LC_HDF5_FORWARD(ssize_t, H5Fget_file_image, (hid_t file_id, void *buf_ptr, size_t buf_len), (file_id, buf_ptr, buf_len))
LC_HDF5_FORWARD(hid_t, H5Fopen, (const char *filename, unsigned flags, hid_t fapl_id), (filename, flags, fapl_id))
LC_HDF5_FORWARD(herr_t, H5Gclose, (hid_t group_id), (group_id))
LC_HDF5_FORWARD(hid_t, H5Gcreate2, (hid_t loc_id, const char *name, hid_t lcpl_id, hid_t gcpl_id, hid_t gapl_id), (loc_id, name, lcpl_id, gcpl_id, gapl_id))
LC_HDF5_FORWARD(hid_t, H5Gopen2, (hid_t loc_id, const char *name, hid_t gapl_id), (loc_id, name, gapl_id))
LC_HDF5_FORWARD(htri_t, H5Lexists, (hid_t loc_id, const char *name, hid_t lapl_id), (loc_id, name, lapl_id))
LC_HDF5_FORWARD(herr_t, H5Oget_info2, (hid_t loc_id, H5O_info_t *oinfo, unsigned fields), (loc_id, oinfo, fields))
LC_HDF5_FORWARD(herr_t, H5Pclose, (hid_t plist_id), (plist_id))
LC_HDF5_FORWARD(hid_t, H5Pcreate, (hid_t cls_id), (cls_id))
LC_HDF5_FORWARD(herr_t, H5Pset_attr_creation_order, (hid_t plist_id, unsigned crt_order_flags), (plist_id, crt_order_flags))
LC_HDF5_FORWARD(herr_t, H5Pset_buffer, (hid_t plist_id, size_t size, void *tconv, void *bkg), (plist_id, size, tconv, bkg))
LC_HDF5_FORWARD(herr_t, H5Pset_chunk, (hid_t plist_id, int ndims, const hsize_t dim[]), (plist_id, ndims, dim))
LC_HDF5_FORWARD(herr_t, H5Pset_deflate, (hid_t plist_id, unsigned level), (plist_id, level))
LC_HDF5_FORWARD(herr_t, H5Pset_fapl_core, (hid_t fapl_id, size_t increment, hbool_t backing_store), (fapl_id, increment, backing_store))
LC_HDF5_FORWARD(herr_t, H5Pset_link_creation_order, (hid_t plist_id, unsigned crt_order_flags), (plist_id, crt_order_flags))
LC_HDF5_FORWARD(herr_t, H5Pset_obj_track_times, (hid_t plist_id, hbool_t track_times), (plist_id, track_times))
LC_HDF5_FORWARD(herr_t, H5Pset_shuffle, (hid_t plist_id), (plist_id))
LC_HDF5_FORWARD(herr_t, H5Sclose, (hid_t space_id), (space_id))
LC_HDF5_FORWARD(hid_t, H5Screate, (H5S_class_t type), (type))
LC_HDF5_FORWARD(hid_t, H5Screate_simple, (int rank, const hsize_t dims[], const hsize_t maxdims[]), (rank, dims, maxdims))
LC_HDF5_FORWARD(int, H5Sget_simple_extent_dims, (hid_t space_id, hsize_t dims[], hsize_t maxdims[]), (space_id, dims, maxdims))
LC_HDF5_FORWARD(int, H5Sget_simple_extent_ndims, (hid_t space_id), (space_id))
LC_HDF5_FORWARD(herr_t, H5Sselect_hyperslab, (hid_t space_id, H5S_seloper_t op, const hsize_t start[], const hsize_t stride[], const hsize_t count[], const hsize_t block[]), (space_id, op, start, stride, count, block))
LC_HDF5_FORWARD(herr_t, H5Tclose, (hid_t type_id), (type_id))
LC_HDF5_FORWARD(hid_t, H5Tcopy, (hid_t type_id), (type_id))
LC_HDF5_FORWARD(hid_t, H5Tcreate, (H5T_class_t type, size_t size), (type, size))
LC_HDF5_FORWARD(H5T_class_t, H5Tget_class, (hid_t type_id), (type_id))
LC_HDF5_FORWARD(int, H5Tget_member_index, (hid_t type_id, const char *name), (type_id, name))
LC_HDF5_FORWARD(hid_t, H5Tget_member_type, (hid_t type_id, unsigned membno), (type_id, membno))
LC_HDF5_FORWARD(size_t, H5Tget_size, (hid_t type_id), (type_id))
LC_HDF5_FORWARD(herr_t, H5Tinsert, (hid_t parent_id, const char *name, size_t offset, hid_t member_id), (parent_id, name, offset, member_id))
LC_HDF5_FORWARD(htri_t, H5Tis_variable_str, (hid_t type_id), (type_id))
LC_HDF5_FORWARD(herr_t, H5Tset_cset, (hid_t type_id, H5T_cset_t cset), (type_id, cset))
LC_HDF5_FORWARD(herr_t, H5Tset_size, (hid_t type_id, size_t size), (type_id, size))
LC_HDF5_FORWARD(herr_t, H5Tset_strpad, (hid_t type_id, H5T_str_t strpad), (type_id, strpad))
LC_HDF5_FORWARD(herr_t, H5check_version, (unsigned majnum, unsigned minnum, unsigned relnum), (majnum, minnum, relnum))
LC_HDF5_FORWARD(herr_t, H5free_memory, (void *mem), (mem))

#undef LC_HDF5_FORWARD

}  // extern "C"
