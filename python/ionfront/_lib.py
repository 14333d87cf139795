"""Loading libionfront and declaring its C signatures (include/ionfront.h)."""
import ctypes
import ctypes.util
import os

STATUS_OK = 0
COMM_WORLD = -1
POSITION_CELLS = 0
POSITION_CM = 1
LOG_INFO = 20        # IONF_LOG_INFO: about the whole run, on rank 0 only
LOG_RANK_INFO = 21   # IONF_LOG_RANK_INFO: about one rank
LOG_WARNING = 30     # IONF_LOG_WARNING
MEMORY_HOST = 0      # IONF_MEMORY_HOST: ionf_thermal_solve's arrays in host memory
MEMORY_DEVICE = 1    # IONF_MEMORY_DEVICE: in GPU memory (the cuda backend)

# void (*handler)(int level, const char *text, void *user)
LOG_HANDLER = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p)

_c_double_p = ctypes.POINTER(ctypes.c_double)
_engine_p = ctypes.c_void_p


def _candidates():
    """Where libionfront may be, in the order tried."""
    env = os.environ.get("IONFRONT_LIBRARY")
    if env:
        yield env
        return  # an explicit choice: no silent fallback to another copy
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "libionfront.so")  # copied next to the package
    try:  # installed by `cmake --install`: PREFIX/lib relative to site-packages
        from ._install_paths import LIBRARY_DIR
        yield os.path.normpath(os.path.join(here, LIBRARY_DIR, "libionfront.so"))
    except ImportError:
        pass
    found = ctypes.util.find_library("ionfront")  # the system's library path
    if found:
        yield found


def load():
    tried = []
    for path in _candidates():
        if os.path.sep in path and not os.path.exists(path):
            tried.append(path + " (missing)")
            continue
        try:
            lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        except OSError as err:
            tried.append(f"{path} ({err})")
            continue
        missing = _declare(lib)
        if missing:  # an older build than this package
            tried.append(f"{path} (an older libionfront: it lacks {', '.join(missing)}; rebuild it)")
            continue
        return lib, path
    raise ImportError(
        "ionfront: cannot load libionfront.so; install the package with it ('pip install .' "
        "from the repository's root), or set IONFRONT_LIBRARY=/path/to/libionfront.so "
        "(build/libionfront.so after building), or install it with "
        "'cmake --install build --prefix ~/.local'. Tried: " + "; ".join(tried or ["nothing"]))


def _declare(lib):
    """argtypes/restype of every call, so that ctypes converts and checks arguments."""
    i64p = ctypes.POINTER(ctypes.c_int64)
    strs = ctypes.POINTER(ctypes.c_char_p)
    sig = {
        "ionf_api_version": (ctypes.c_int, []),
        "ionf_version_string": (ctypes.c_char_p, []),
        "ionf_status_name": (ctypes.c_char_p, [ctypes.c_int]),
        "ionf_last_error_message": (ctypes.c_char_p, [_engine_p]),
        "ionf_set_log_handler": (None, [LOG_HANDLER, ctypes.c_void_p]),
        "ionf_init": (ctypes.c_int, []),
        "ionf_finalize": (ctypes.c_int, []),
        "ionf_engine_create_from_file": (
            ctypes.c_int, [ctypes.c_char_p, strs, ctypes.c_int, ctypes.c_int, ctypes.POINTER(_engine_p)]),
        "ionf_engine_create_from_yaml": (
            ctypes.c_int, [ctypes.c_char_p, strs, ctypes.c_int, ctypes.c_int, ctypes.POINTER(_engine_p)]),
        "ionf_engine_create_builtin": (
            ctypes.c_int, [ctypes.c_char_p, strs, ctypes.c_int, ctypes.c_int, ctypes.POINTER(_engine_p)]),
        "ionf_engine_destroy": (None, [_engine_p]),
        "ionf_engine_kind": (ctypes.c_int, [_engine_p, ctypes.POINTER(ctypes.c_int), i64p]),
        "ionf_engine_grid": (ctypes.c_int, [_engine_p, i64p, _c_double_p, _c_double_p]),
        "ionf_engine_local_box": (ctypes.c_int, [_engine_p, i64p, i64p, i64p]),
        "ionf_engine_time": (ctypes.c_int, [_engine_p, _c_double_p, i64p, _c_double_p, _c_double_p]),
        "ionf_engine_rank": (ctypes.c_int, [_engine_p, ctypes.POINTER(ctypes.c_int),
                                            ctypes.POINTER(ctypes.c_int)]),
        "ionf_engine_field": (ctypes.c_int, [_engine_p, ctypes.c_char_p,
                                             ctypes.POINTER(_c_double_p), i64p]),
        "ionf_engine_field_modified": (ctypes.c_int, [_engine_p, ctypes.c_char_p]),
        "ionf_engine_set_field": (ctypes.c_int, [_engine_p, ctypes.c_char_p, _c_double_p,
                                                 ctypes.c_int64]),
        "ionf_engine_set_sources": (ctypes.c_int, [_engine_p, ctypes.c_int64, _c_double_p,
                                                   ctypes.c_int, _c_double_p]),
        "ionf_engine_source_count": (ctypes.c_int, [_engine_p, i64p]),
        "ionf_engine_step": (ctypes.c_int, [_engine_p, ctypes.c_double, ctypes.POINTER(ctypes.c_int)]),
        "ionf_engine_run": (ctypes.c_int, [_engine_p]),
        "ionf_engine_write_snapshot": (ctypes.c_int, [_engine_p, ctypes.c_int, ctypes.c_char_p,
                                                      ctypes.c_size_t]),
        "ionf_engine_write_checkpoint": (ctypes.c_int, [_engine_p, ctypes.c_char_p, ctypes.c_size_t]),
        "ionf_engine_restart": (ctypes.c_int, [_engine_p, ctypes.c_char_p]),
        # redshifts and cosmology (grid engines)
        "ionf_engine_cosmology": (ctypes.c_int, [_engine_p, ctypes.POINTER(ctypes.c_int)] + [_c_double_p] * 6),
        "ionf_engine_redshift": (ctypes.c_int, [_engine_p, _c_double_p]),
        "ionf_engine_age_at_redshift": (ctypes.c_int, [_engine_p, ctypes.c_double, _c_double_p]),
        "ionf_engine_redshift_at_age": (ctypes.c_int, [_engine_p, ctypes.c_double, _c_double_p]),
        "ionf_engine_hubble": (ctypes.c_int, [_engine_p, ctypes.c_double, _c_double_p]),
        "ionf_engine_set_density": (ctypes.c_int, [_engine_p, _c_double_p, ctypes.c_int64,
                                                   ctypes.c_double]),
        # thermal radiation (problem: thermal); arrays as void pointers: host or device
        "ionf_thermal_create_from_file": (
            ctypes.c_int, [ctypes.c_char_p, strs, ctypes.c_int, ctypes.c_int, ctypes.POINTER(_engine_p)]),
        "ionf_thermal_create_from_yaml": (
            ctypes.c_int, [ctypes.c_char_p, strs, ctypes.c_int, ctypes.c_int, ctypes.POINTER(_engine_p)]),
        "ionf_thermal_create_builtin": (
            ctypes.c_int, [ctypes.c_char_p, strs, ctypes.c_int, ctypes.c_int, ctypes.POINTER(_engine_p)]),
        "ionf_thermal_destroy": (None, [_engine_p]),
        "ionf_thermal_grid": (ctypes.c_int, [_engine_p, i64p, _c_double_p]),
        "ionf_thermal_cell_range": (ctypes.c_int, [_engine_p, i64p, i64p]),
        "ionf_thermal_solve": (ctypes.c_int, [_engine_p] + [ctypes.c_void_p] * 6 + [ctypes.c_int]),
        "ionf_thermal_wall_shape": (ctypes.c_int, [_engine_p, ctypes.c_int, i64p]),
        "ionf_thermal_wall_flux": (ctypes.c_int, [_engine_p, ctypes.c_int, ctypes.c_void_p,
                                                  ctypes.c_void_p, ctypes.c_int64]),
        "ionf_thermal_stats": (ctypes.c_int, [_engine_p, i64p, i64p, _c_double_p]),
    }
    missing = []
    for name, (restype, argtypes) in sig.items():
        try:
            fn = getattr(lib, name)
        except AttributeError:
            missing.append(name)
            continue
        fn.restype = restype
        fn.argtypes = argtypes
    return missing
