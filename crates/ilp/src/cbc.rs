//! A small safe wrapper over CBC's C interface (`coin_cbc_sys`, the raw bindings under the
//! `coin_cbc` crate), holding only what this crate needs.
//!
//! Why not `coin_cbc::raw::Model`: it does not expose the branch-and-bound node count
//! (`Cbc_getNodeCount`), which the statistics report, and its pointer is private. The CBC
//! library itself is the one `cbc-src` compiles from source and links statically.
//!
//! libCbc is not thread-safe (global state in `CbcMain0/1`), so every model lives entirely
//! under one process-wide lock: [`CbcModel::new`] takes it and dropping the model releases
//! it. A thread therefore holds at most one model at a time; this crate never nests them.

use std::ffi::CString;
use std::os::raw::c_int;
use std::sync::{Mutex, MutexGuard};

use coin_cbc_sys as sys;

// Makes sure the statically built CBC (and CoinUtils, Osi, Clp, Cgl) is linked in.
use cbc_src as _;

static CBC_LOCK: Mutex<()> = Mutex::new(());

/// A sparse matrix stored column by column, as `Cbc_loadProblem` wants it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Csc {
    /// Start of each column in `index`/`value`, plus one final entry.
    pub start: Vec<c_int>,
    /// Row of each entry, increasing within a column.
    pub index: Vec<c_int>,
    /// Coefficient of each entry.
    pub value: Vec<f64>,
}

/// Everything `Cbc_loadProblem` needs.
#[derive(Clone, Debug, Default)]
pub(crate) struct LpData {
    pub matrix: Csc,
    pub col_lower: Vec<f64>,
    pub col_upper: Vec<f64>,
    pub obj: Vec<f64>,
    pub row_lower: Vec<f64>,
    pub row_upper: Vec<f64>,
}

impl LpData {
    pub fn num_cols(&self) -> usize {
        self.col_lower.len()
    }

    pub fn num_rows(&self) -> usize {
        self.row_lower.len()
    }
}

/// CBC's primary status (`Cbc_status`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PrimaryStatus {
    Unlaunched,
    Finished,
    Stopped,
    Abandoned,
    UserEvent,
    Other(c_int),
}

impl PrimaryStatus {
    fn from_code(c: c_int) -> PrimaryStatus {
        match c {
            -1 => PrimaryStatus::Unlaunched,
            0 => PrimaryStatus::Finished,
            1 => PrimaryStatus::Stopped,
            2 => PrimaryStatus::Abandoned,
            5 => PrimaryStatus::UserEvent,
            c => PrimaryStatus::Other(c),
        }
    }

    pub fn name(self) -> String {
        match self {
            PrimaryStatus::Unlaunched => "unlaunched".into(),
            PrimaryStatus::Finished => "finished".into(),
            PrimaryStatus::Stopped => "stopped".into(),
            PrimaryStatus::Abandoned => "abandoned".into(),
            PrimaryStatus::UserEvent => "user-event".into(),
            PrimaryStatus::Other(c) => format!("status-{c}"),
        }
    }
}

/// CBC's secondary status (`Cbc_secondaryStatus`), named as in CBC's documentation.
pub(crate) fn secondary_name(code: c_int) -> String {
    match code {
        -1 => "unlaunched".into(),
        0 => "has-solution".into(),
        1 => "lp-infeasible".into(),
        2 => "stopped-on-gap".into(),
        3 => "stopped-on-nodes".into(),
        4 => "stopped-on-time".into(),
        5 => "stopped-on-user-event".into(),
        6 => "stopped-on-solutions".into(),
        7 => "lp-unbounded".into(),
        8 => "stopped-on-iterations".into(),
        c => format!("secondary-{c}"),
    }
}

/// One CBC model, owning the global CBC lock for its whole life.
pub(crate) struct CbcModel {
    m: *mut sys::Cbc_Model,
    cols: usize,
    // Declared after `m` is used in `Drop`; released when the model is gone.
    _guard: MutexGuard<'static, ()>,
}

impl CbcModel {
    /// Loads `data`; columns are continuous until [`CbcModel::set_integer`].
    pub fn new(data: &LpData) -> CbcModel {
        // A panic while holding the lock cannot leave CBC half-updated in a way we could
        // detect, and each model is independent, so a poisoned lock is still usable.
        let guard = CBC_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        // SAFETY: CBC calls are serialised by `guard`; all slices have the lengths CBC reads
        // (checked by the debug assertions below and by construction in `model.rs`).
        let m = unsafe { sys::Cbc_newModel() };
        let cols = data.num_cols();
        let rows = data.num_rows();
        debug_assert_eq!(data.matrix.start.len(), cols + 1);
        debug_assert_eq!(data.matrix.index.len(), data.matrix.value.len());
        debug_assert_eq!(data.col_upper.len(), cols);
        debug_assert_eq!(data.obj.len(), cols);
        debug_assert_eq!(data.row_upper.len(), rows);
        unsafe {
            sys::Cbc_loadProblem(
                m,
                cols as c_int,
                rows as c_int,
                data.matrix.start.as_ptr(),
                data.matrix.index.as_ptr(),
                data.matrix.value.as_ptr(),
                data.col_lower.as_ptr(),
                data.col_upper.as_ptr(),
                data.obj.as_ptr(),
                data.row_lower.as_ptr(),
                data.row_upper.as_ptr(),
            );
        }
        CbcModel {
            m,
            cols,
            _guard: guard,
        }
    }

    /// Marks every column integer (they are binary through their bounds).
    pub fn set_all_integer(&mut self) {
        for j in 0..self.cols {
            // SAFETY: `j` is a valid column.
            unsafe { sys::Cbc_setInteger(self.m, j as c_int) };
        }
    }

    /// Minimise (`true`) or maximise.
    pub fn set_minimise(&mut self, minimise: bool) {
        // SAFETY: plain setter on a live model.
        unsafe { sys::Cbc_setObjSense(self.m, if minimise { 1.0 } else { -1.0 }) };
    }

    pub fn set_obj_coeff(&mut self, j: usize, v: f64) {
        debug_assert!(j < self.cols);
        // SAFETY: `j` is a valid column.
        unsafe { sys::Cbc_setObjCoeff(self.m, j as c_int, v) };
    }

    /// A command-line style parameter of `CbcMain1` (e.g. `sec`, `log`, `presolve`).
    pub fn set_parameter(&mut self, name: &str, value: &str) {
        // Names and values are ours or validated numbers/keywords: no interior NUL.
        let (Ok(n), Ok(v)) = (CString::new(name), CString::new(value)) else {
            return;
        };
        // SAFETY: CBC copies both strings.
        unsafe { sys::Cbc_setParameter(self.m, n.as_ptr(), v.as_ptr()) };
    }

    pub fn set_log_level(&mut self, level: i32) {
        // SAFETY: plain setter on a live model.
        unsafe { sys::Cbc_setLogLevel(self.m, level as c_int) };
    }

    /// Solves: branch and cut when some column is integer, otherwise one LP with Clp.
    pub fn solve(&mut self) {
        // SAFETY: serialised by the lock this model holds.
        unsafe { sys::Cbc_solve(self.m) };
    }

    pub fn status(&self) -> PrimaryStatus {
        // SAFETY: read-only query.
        PrimaryStatus::from_code(unsafe { sys::Cbc_status(self.m) })
    }

    pub fn secondary_status(&self) -> c_int {
        // SAFETY: read-only query.
        unsafe { sys::Cbc_secondaryStatus(self.m) }
    }

    pub fn is_proven_optimal(&self) -> bool {
        // SAFETY: read-only query.
        unsafe { sys::Cbc_isProvenOptimal(self.m) != 0 }
    }

    pub fn is_proven_infeasible(&self) -> bool {
        // SAFETY: read-only query.
        unsafe { sys::Cbc_isProvenInfeasible(self.m) != 0 }
    }

    pub fn is_seconds_limit_reached(&self) -> bool {
        // SAFETY: read-only query.
        unsafe { sys::Cbc_isSecondsLimitReached(self.m) != 0 }
    }

    pub fn is_node_limit_reached(&self) -> bool {
        // SAFETY: read-only query.
        unsafe { sys::Cbc_isNodeLimitReached(self.m) != 0 }
    }

    pub fn is_abandoned(&self) -> bool {
        // SAFETY: read-only query.
        unsafe { sys::Cbc_isAbandoned(self.m) != 0 }
    }

    pub fn node_count(&self) -> u64 {
        // SAFETY: read-only query.
        unsafe { sys::Cbc_getNodeCount(self.m) }.max(0) as u64
    }

    pub fn iteration_count(&self) -> u64 {
        // SAFETY: read-only query.
        unsafe { sys::Cbc_getIterationCount(self.m) }.max(0) as u64
    }

    pub fn obj_value(&self) -> f64 {
        // SAFETY: read-only query.
        unsafe { sys::Cbc_getObjValue(self.m) }
    }

    /// The column values of the last solve (best solution for a MIP), if CBC has any.
    pub fn col_solution(&self) -> Option<Vec<f64>> {
        // SAFETY: CBC returns null or an array of `cols` doubles owned by the model; we copy
        // it before the model can change.
        let p = unsafe { sys::Cbc_getColSolution(self.m) };
        if p.is_null() {
            return None;
        }
        Some(unsafe { std::slice::from_raw_parts(p, self.cols) }.to_vec())
    }
}

impl Drop for CbcModel {
    fn drop(&mut self) {
        // SAFETY: `m` came from `Cbc_newModel` and is deleted once; the lock is still held
        // because `_guard` is dropped after this body runs.
        unsafe { sys::Cbc_deleteModel(self.m) };
    }
}
