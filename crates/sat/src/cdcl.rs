//! CaDiCaL through its C API. The `cadical` crate compiles CaDiCaL and links its C interface,
//! but its safe wrapper offers only the presets and the limits; `options=` needs
//! `ccadical_set_option`, so this module calls the C functions itself (the crate still builds
//! and links the library). One [`Cadical`] owns one solver and the state its callbacks see.

use std::ffi::CString;
use std::os::raw::{c_char, c_int, c_void};

// The C library of the `cadical` crate: named here so that it is linked.
use cadical as _;

extern "C" {
    fn ccadical_init() -> *mut c_void;
    fn ccadical_release(ptr: *mut c_void);
    fn ccadical_add(ptr: *mut c_void, lit: c_int);
    fn ccadical_solve(ptr: *mut c_void) -> c_int;
    fn ccadical_val(ptr: *mut c_void, lit: c_int) -> c_int;
    fn ccadical_set_terminate(
        ptr: *mut c_void,
        state: *mut c_void,
        terminate: Option<extern "C" fn(*mut c_void) -> c_int>,
    );
    fn ccadical_set_learn(
        ptr: *mut c_void,
        state: *mut c_void,
        max_length: c_int,
        learn: Option<extern "C" fn(*mut c_void, *mut c_int)>,
    );
    fn ccadical_set_option(ptr: *mut c_void, name: *const c_char, val: c_int);
    fn ccadical_get_option(ptr: *mut c_void, name: *const c_char) -> c_int;
    // Added to the C interface by the `cadical` crate (its src/ccadical.cpp).
    fn ccadical_configure(ptr: *mut c_void, name: *const c_char) -> c_int;
    fn ccadical_limit2(ptr: *mut c_void, name: *const c_char, limit: c_int) -> c_int;
}

/// What the solver's callbacks read and write: the caller sets it between calls.
pub(crate) trait Hooks: Send {
    /// Whether to stop now (CaDiCaL asks at decisions and restarts).
    fn terminate(&mut self) -> bool;
    /// One learned clause (one per conflict).
    fn learned(&mut self);
}

/// One CaDiCaL solver with its callbacks' state `H`.
pub(crate) struct Cadical<H: Hooks> {
    ptr: *mut c_void,
    /// Owned (from `Box::into_raw`): CaDiCaL's callbacks get this pointer, and every access
    /// from Rust goes through it, so no reference outlives a call.
    hooks: *mut H,
}

// SAFETY: CaDiCaL keeps no thread-local state, and the solver and its hooks move together; a
// `Cadical` is used from one thread at a time (`&mut self` for every call into it).
unsafe impl<H: Hooks> Send for Cadical<H> {}

impl<H: Hooks> Cadical<H> {
    /// A new solver with `preset` (CaDiCaL's `configure` names) and then `options` (name,
    /// value) set, in that order, before any clause: CaDiCaL accepts them only then.
    pub(crate) fn new(preset: &str, options: &[(String, i32)], hooks: H) -> Result<Self, String> {
        // SAFETY: a fresh solver; released in `drop`.
        let ptr = unsafe { ccadical_init() };
        let hooks = Box::into_raw(Box::new(hooks));
        let solver = Cadical { ptr, hooks };
        let name = c_name(preset)?;
        // SAFETY: `ptr` is live and in its configuring state.
        if unsafe { ccadical_configure(ptr, name.as_ptr()) } == 0 {
            return Err(format!("CaDiCaL has no configuration `{preset}`"));
        }
        for (option, value) in options {
            let name = c_name(option)?;
            // SAFETY: as above; names are checked by `check_options` first.
            unsafe { ccadical_set_option(ptr, name.as_ptr(), *value) };
        }
        // SAFETY: `hooks` stays valid until `drop`, which disconnects nothing because the
        // solver is released first.
        unsafe {
            ccadical_set_terminate(ptr, solver.hooks.cast(), Some(terminate_cb::<H>));
            ccadical_set_learn(ptr, solver.hooks.cast(), c_int::MAX, Some(learn_cb::<H>));
        }
        Ok(solver)
    }

    /// The callbacks' state.
    pub(crate) fn hooks(&mut self) -> &mut H {
        // SAFETY: owned by `self`, and CaDiCaL only touches it inside `solve`, which needs
        // `&mut self` too.
        unsafe { &mut *self.hooks }
    }

    /// Adds one clause (literals without the closing 0).
    pub(crate) fn add_clause(&mut self, lits: &[i32]) {
        for &l in lits {
            // SAFETY: `ptr` is live; literals are non-zero.
            unsafe { ccadical_add(self.ptr, l) };
        }
        // SAFETY: as above.
        unsafe { ccadical_add(self.ptr, 0) };
    }

    /// Sets one of CaDiCaL's limits for the next call (`conflicts`, `decisions`, ...).
    pub(crate) fn limit(&mut self, name: &str, value: i32) -> bool {
        let Ok(name) = c_name(name) else {
            return false;
        };
        // SAFETY: `ptr` is live.
        unsafe { ccadical_limit2(self.ptr, name.as_ptr(), value) != 0 }
    }

    /// Solves: `Some(true)` satisfiable, `Some(false)` unsatisfiable, `None` stopped.
    pub(crate) fn solve(&mut self) -> Option<bool> {
        // SAFETY: `ptr` is live; the callbacks reach `hooks`, which nothing else borrows now.
        match unsafe { ccadical_solve(self.ptr) } {
            10 => Some(true),
            20 => Some(false),
            _ => None,
        }
    }

    /// The value of a variable in the model of the last satisfiable call.
    pub(crate) fn value(&self, var: i32) -> bool {
        // SAFETY: `ptr` is live; the caller asks only after `Some(true)`.
        unsafe { ccadical_val(self.ptr, var) > 0 }
    }
}

impl<H: Hooks> Drop for Cadical<H> {
    fn drop(&mut self) {
        // SAFETY: both were made in `new` and are freed once, the solver (which holds the
        // hooks' pointer) first.
        unsafe {
            ccadical_release(self.ptr);
            drop(Box::from_raw(self.hooks));
        }
    }
}

extern "C" fn terminate_cb<H: Hooks>(state: *mut c_void) -> c_int {
    // SAFETY: `state` is the `hooks` pointer of a live `Cadical`, inside its `solve`.
    let hooks = unsafe { &mut *state.cast::<H>() };
    c_int::from(hooks.terminate())
}

extern "C" fn learn_cb<H: Hooks>(state: *mut c_void, _clause: *mut c_int) {
    // SAFETY: as in `terminate_cb`.
    let hooks = unsafe { &mut *state.cast::<H>() };
    hooks.learned();
}

fn c_name(name: &str) -> Result<CString, String> {
    CString::new(name).map_err(|_| format!("`{name}` contains a NUL byte"))
}

/// Checks CaDiCaL options (name, value) on a scratch solver: each name must be one of
/// CaDiCaL's options and each value within its range. (Its C API sets options without saying
/// whether it knew the name, and clips values to their range; an unknown name reads back 0,
/// and every option's upper bound is at least 1.)
pub(crate) fn check_options(options: &[(String, i32)]) -> Result<(), String> {
    // SAFETY: a scratch solver, released below; options are set right after initialisation.
    let ptr = unsafe { ccadical_init() };
    let mut out = Ok(());
    for (option, value) in options {
        let name = match c_name(option) {
            Ok(n) => n,
            Err(e) => {
                out = Err(e);
                break;
            }
        };
        // SAFETY: `ptr` is live and still configuring.
        let (known, back) = unsafe {
            ccadical_set_option(ptr, name.as_ptr(), c_int::MAX);
            let known = ccadical_get_option(ptr, name.as_ptr()) != 0;
            ccadical_set_option(ptr, name.as_ptr(), *value);
            (known, ccadical_get_option(ptr, name.as_ptr()))
        };
        if !known {
            out = Err(format!("CaDiCaL has no option `{option}`"));
            break;
        }
        if back != *value {
            out = Err(format!(
                "CaDiCaL's option `{option}` does not take {value} (out of its range)"
            ));
            break;
        }
    }
    // SAFETY: made above, freed once.
    unsafe { ccadical_release(ptr) };
    out
}

/// Parses `name=value,name=value` (spaces allowed around each part; `name` alone means 1;
/// `none` is no option).
pub(crate) fn parse_options(text: &str) -> Result<Vec<(String, i32)>, String> {
    if text.trim() == "none" {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(|part| {
            let (name, value) = part.split_once('=').unwrap_or((part, "1"));
            let name = name.trim().trim_start_matches("--");
            let value = match value.trim() {
                "true" => 1,
                "false" => 0,
                v => v
                    .parse::<i32>()
                    .map_err(|_| format!("`{part}`: the value is not an integer"))?,
            };
            if name.is_empty() {
                return Err(format!("`{part}`: no option name"));
            }
            Ok((name.to_string(), value))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_checked_by_name_and_range() {
        let ok = parse_options("seed=7, shuffle, --phase=0").unwrap();
        assert_eq!(ok[1], ("shuffle".to_string(), 1));
        assert_eq!(ok[2], ("phase".to_string(), 0));
        assert!(check_options(&ok).is_ok());
        let unknown = parse_options("nosuchoption=0").unwrap();
        assert!(check_options(&unknown).unwrap_err().contains("no option"));
        let range = parse_options("phase=5").unwrap();
        assert!(check_options(&range).unwrap_err().contains("range"));
        assert!(parse_options("seed=x").is_err());
    }
}
