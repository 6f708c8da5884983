//! A small wrapper over `coin_cbc::raw::Model` holding only what this crate needs, with
//! CBC's status codes named.
//!
//! libCbc is not thread-safe (global state in `CbcMain0/1`): `coin_cbc`'s default
//! `singlethread-cbc` feature serialises model creation, every solve and deletion behind its
//! process-wide lock, so concurrent callers are safe and their solves run one at a time.
//! The CBC library itself is the one `cbc-src` compiles from source and links statically.

use std::ffi::CString;
use std::mem::ManuallyDrop;
use std::os::raw::c_int;

use coin_cbc::raw::{Model, Sense};

// Makes sure the statically built CBC (and CoinUtils, Osi, Clp, Cgl) is linked in.
use cbc_src as _;

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

/// One CBC model. Creating, solving and dropping it go through [`crate::isolate::gate`], so
/// a fork never happens while another thread is inside CBC.
pub(crate) struct CbcModel {
    m: ManuallyDrop<Model>,
}

impl Drop for CbcModel {
    fn drop(&mut self) {
        let _gate = crate::isolate::gate();
        // SAFETY: dropped once, here; `self.m` is not used again.
        unsafe { ManuallyDrop::drop(&mut self.m) };
    }
}

impl CbcModel {
    /// Loads `data`; columns are continuous until [`CbcModel::set_all_integer`].
    pub fn new(data: &LpData) -> CbcModel {
        let mut m = {
            let _gate = crate::isolate::gate();
            Model::new()
        };
        m.load_problem(
            data.num_cols(),
            data.num_rows(),
            &data.matrix.start,
            &data.matrix.index,
            &data.matrix.value,
            Some(&data.col_lower),
            Some(&data.col_upper),
            Some(&data.obj),
            Some(&data.row_lower),
            Some(&data.row_upper),
        );
        CbcModel {
            m: ManuallyDrop::new(m),
        }
    }

    /// Marks every column integer (they are binary through their bounds).
    pub fn set_all_integer(&mut self) {
        for j in 0..self.m.num_cols() {
            self.m.set_integer(j);
        }
    }

    /// Marks column `j` integer.
    pub fn set_integer(&mut self, j: usize) {
        self.m.set_integer(j);
    }

    /// Minimise (`true`) or maximise.
    pub fn set_minimise(&mut self, minimise: bool) {
        self.m.set_obj_sense(if minimise {
            Sense::Minimize
        } else {
            Sense::Maximize
        });
    }

    pub fn set_obj_coeff(&mut self, j: usize, v: f64) {
        self.m.set_obj_coeff(j, v);
    }

    /// Fixes or frees a column through its bounds.
    pub fn set_col_bounds(&mut self, j: usize, lower: f64, upper: f64) {
        self.m.set_col_lower(j, lower);
        self.m.set_col_upper(j, upper);
    }

    /// A command-line style parameter of `CbcMain1` (e.g. `sec`, `log`, `presolve`).
    pub fn set_parameter(&mut self, name: &str, value: &str) {
        // Names and values are ours or validated numbers/keywords: no interior NUL.
        let (Ok(n), Ok(v)) = (CString::new(name), CString::new(value)) else {
            return;
        };
        self.m.set_parameter(&n, &v);
    }

    pub fn set_log_level(&mut self, level: i32) {
        self.m.set_log_level(level as c_int);
    }

    /// Solves: branch and cut when some column is integer, otherwise one LP with Clp (a
    /// warm-started re-solve when an earlier LP left a basis).
    pub fn solve(&mut self) {
        let _gate = crate::isolate::gate();
        self.m.solve();
    }

    /// CBC's primary status (`Cbc_status`), named.
    pub fn status_name(&self) -> String {
        use coin_cbc::raw::Status;
        match self.m.status() {
            Status::Unlaunched => "unlaunched",
            Status::Finished => "finished",
            Status::Stopped => "stopped",
            Status::Abandoned => "abandoned",
            Status::UserEvent => "user-event",
        }
        .to_string()
    }

    pub fn secondary_status(&self) -> c_int {
        self.m.secondary_status() as c_int
    }

    pub fn is_proven_optimal(&self) -> bool {
        self.m.is_proven_optimal()
    }

    pub fn is_proven_infeasible(&self) -> bool {
        self.m.is_proven_infeasible()
    }

    pub fn is_seconds_limit_reached(&self) -> bool {
        self.m.is_seconds_limit_reached()
    }

    pub fn is_node_limit_reached(&self) -> bool {
        self.m.is_node_limit_reached()
    }

    pub fn is_abandoned(&self) -> bool {
        self.m.is_abandoned()
    }

    /// Branch-and-bound nodes of the last `CbcMain1` run.
    ///
    /// `coin_cbc` 0.1.9 wraps every query of CBC's C interface but `Cbc_getNodeCount`, and
    /// keeps the `Cbc_Model` pointer in a private field. Its `raw::Model` is a struct with
    /// that one pointer field and nothing else; the assertion below checks at compile time
    /// that it is exactly pointer-sized, so the field fills it and starts at offset 0. The
    /// dependency is pinned to `=0.1.9` so a new layout cannot arrive unseen.
    pub fn node_count(&self) -> u64 {
        const _: () = assert!(
            std::mem::size_of::<Model>() == std::mem::size_of::<*mut coin_cbc_sys::Cbc_Model>()
        );
        // SAFETY: by the assertion above, the first (and only) bytes of `Model` are its
        // `*mut Cbc_Model`, a live model owned by `self.m`; the call only reads it, and the
        // borrow of `self` keeps `Drop` away.
        let model: &Model = &self.m;
        let ptr = unsafe { *(model as *const Model).cast::<*mut coin_cbc_sys::Cbc_Model>() };
        unsafe { coin_cbc_sys::Cbc_getNodeCount(ptr) }.max(0) as u64
    }

    pub fn iteration_count(&self) -> u64 {
        self.m.iteration_count().max(0) as u64
    }

    pub fn obj_value(&self) -> f64 {
        self.m.obj_value()
    }

    /// The column values of the last solve (the best solution for a MIP).
    pub fn col_solution(&self) -> Vec<f64> {
        self.m.col_solution().to_vec()
    }
}
