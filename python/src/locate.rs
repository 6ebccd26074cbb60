//! `citestore.locate` and `citestore.locate_many`: a quote found in a chunk of text, as
//! `citestore locate --json` prints it, one quote a call or a whole batch in one call.
//!
//! Invariants:
//! - A result is the CLI's: `Haystack::locate_hinted` with the same options, the same fields in
//!   the same order, `hints` only where the CLI prints it (the hints chose among several
//!   occurrences). Offsets, `near` included, are `str` indices: Unicode code points, which are
//!   the CLI's chars (a `str` that is not UTF-8, a lone surrogate, is refused).
//! - `locate_many(pairs)[i]` is `locate(*pairs[i])`: every pair is checked before any is
//!   located, and a bad one raises `BadInput` naming its index.
//! - Strings are read where CPython keeps their UTF-8 (`utf8`), never copied; a batch keeps
//!   every item alive while it works, so it can work with the GIL released.

use super::{raise, Failure};
use citestore::text::{is_blank, Haystack, HintChoice, How, LocateHints, LocateOptions, Located};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

/// Why an empty quote, or one of only whitespace and invisible characters, is refused (the
/// CLI's words).
const BLANK_QUOTE: &str = "the quote is empty or has no visible characters";

/// Work below this many bytes of text (chunks and quotes) is done holding the GIL: a chunk is
/// typically a few KB, located in microseconds, less than releasing and taking back the GIL
/// costs other threads.
const DETACH_BYTES: usize = 64 * 1024;

/// Finds ``quote`` in ``chunk``: exactly, then after folding typography, then by fuzzy
/// alignment. Returns ``{"start", "end", "score", "how", "occurrences", "text"}`` (plus
/// ``"reason"`` for a review, ``"hints"`` when the hints chose among occurrences) as
/// ``citestore locate --json``, or ``None`` when the quote has no span. ``prefix``, ``suffix``
/// and ``near`` are the CLI's ``--prefix``, ``--suffix`` and ``--near``. Offsets, ``near``
/// too, are ``str`` indices into ``chunk``. Raises ``citestore.BadInput`` for an empty or blank
/// quote, a negative ``near``, or cut-offs that are not scores from 0 to 100 with review <=
/// accept.
#[pyfunction]
#[pyo3(signature = (
    chunk, quote, *, prefix=None, suffix=None, near=None, accept=95.0, review=85.0,
    meaning_guard=true
))]
// The Python signature: the CLI's flags as keyword arguments.
#[allow(clippy::too_many_arguments)]
pub(crate) fn locate<'py>(
    py: Python<'py>,
    chunk: &Bound<'py, PyString>,
    quote: &Bound<'py, PyString>,
    prefix: Option<&Bound<'py, PyString>>,
    suffix: Option<&Bound<'py, PyString>>,
    near: Option<i64>,
    accept: f64,
    review: f64,
    meaning_guard: bool,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let (text, quote) = (utf8(chunk)?, utf8(quote)?);
    let options = options(py, accept, review, meaning_guard)?;
    if is_blank(quote) {
        let why = format!("{BLANK_QUOTE}: pass the words the model quoted");
        return Err(raise(py, Failure::Input(why)));
    }
    let hints = LocateHints {
        prefix: owned(prefix)?,
        suffix: owned(suffix)?,
        near: near
            .map(|at| index(at).map_err(|why| raise(py, Failure::Input(format!("near={why}")))))
            .transpose()?,
    };
    let job = Job {
        chunk: text,
        quote,
        hints,
    };
    let found = if text.len() > DETACH_BYTES {
        py.detach(|| find(&Haystack::new(text), &job, &options))
    } else {
        find(&Haystack::new(text), &job, &options)
    };
    found.map(|found| result(chunk, found)).transpose()
}

/// Locates every quote of ``pairs`` in its chunk and returns the results in order: what
/// :func:`locate` returns for each (a dict, or ``None``). A pair is a ``(chunk, quote)`` tuple
/// or a dict ``{"chunk", "quote"}`` with optional ``"prefix"``, ``"suffix"`` and ``"near"``
/// (as :func:`locate` takes them). Consecutive pairs with the same chunk fold it once; a batch
/// with much text works with the GIL released. Every pair is checked first: a blank quote, a
/// negative ``near`` or a pair of another shape raises ``citestore.BadInput`` naming its index
/// (``pairs[3]: …``), and nothing is located.
#[pyfunction]
#[pyo3(signature = (pairs, *, accept=95.0, review=85.0, meaning_guard=true))]
pub(crate) fn locate_many<'py>(
    py: Python<'py>,
    pairs: &Bound<'py, PyAny>,
    accept: f64,
    review: f64,
    meaning_guard: bool,
) -> PyResult<Bound<'py, PyList>> {
    let options = options(py, accept, review, meaning_guard)?;
    // The strings stay referenced here while the batch works, so their UTF-8 stays put.
    let pairs: Vec<Pair<'py>> = pairs
        .try_iter()?
        .enumerate()
        .map(|(i, item)| {
            pair(&item?).map_err(|why| raise(py, Failure::Input(format!("pairs[{i}]: {why}"))))
        })
        .collect::<PyResult<_>>()?;
    let jobs: Vec<Job<'_>> = pairs.iter().map(Pair::job).collect::<PyResult<_>>()?;
    let bytes: usize = jobs
        .iter()
        .map(|job| job.chunk.len() + job.quote.len())
        .sum();
    let found = if bytes > DETACH_BYTES {
        py.detach(|| find_all(&jobs, &options))
    } else {
        find_all(&jobs, &options)
    };
    let out = PyList::empty(py);
    for (pair, found) in pairs.iter().zip(found) {
        match found {
            Some(found) => out.append(result(&pair.chunk, found)?)?,
            None => out.append(py.None())?,
        }
    }
    Ok(out)
}

/// One quote to locate, its strings borrowed from Python objects kept alive by the caller.
struct Job<'a> {
    chunk: &'a str,
    quote: &'a str,
    hints: LocateHints,
}

/// A located quote, and how the hints chose among occurrences.
struct Found {
    located: Located,
    choice: Option<HintChoice>,
}

/// One pair of a batch as given: its Python strings and its hints.
struct Pair<'py> {
    chunk: Bound<'py, PyString>,
    quote: Bound<'py, PyString>,
    prefix: Option<Bound<'py, PyString>>,
    suffix: Option<Bound<'py, PyString>>,
    near: Option<usize>,
}

impl Pair<'_> {
    fn job(&self) -> PyResult<Job<'_>> {
        Ok(Job {
            chunk: utf8(&self.chunk)?,
            quote: utf8(&self.quote)?,
            hints: LocateHints {
                prefix: owned(self.prefix.as_ref())?,
                suffix: owned(self.suffix.as_ref())?,
                near: self.near,
            },
        })
    }
}

/// A batch item read as a pair, or why it is not one (the caller names its index).
fn pair<'py>(item: &Bound<'py, PyAny>) -> Result<Pair<'py>, String> {
    let pair = if let Ok(tuple) = item.cast::<PyTuple>() {
        if tuple.len() != 2 {
            return Err(format!(
                "a tuple of {} items; give (chunk, quote) or a dict",
                tuple.len()
            ));
        }
        Pair {
            chunk: string(&tuple.get_item(0).map_err(|e| e.to_string())?, "chunk")?,
            quote: string(&tuple.get_item(1).map_err(|e| e.to_string())?, "quote")?,
            prefix: None,
            suffix: None,
            near: None,
        }
    } else if let Ok(dict) = item.cast::<PyDict>() {
        let required = |key: &str| match dict.get_item(key) {
            Ok(Some(value)) => string(&value, key),
            _ => Err(format!(
                "no {key:?}; give {{\"chunk\": ..., \"quote\": ...}}"
            )),
        };
        let optional = |key: &str| match dict.get_item(key) {
            Ok(Some(value)) if !value.is_none() => string(&value, key).map(Some),
            _ => Ok(None),
        };
        let near = match dict.get_item("near") {
            Ok(Some(value)) if !value.is_none() => Some(near_of(&value)?),
            _ => None,
        };
        Pair {
            chunk: required("chunk")?,
            quote: required("quote")?,
            prefix: optional("prefix")?,
            suffix: optional("suffix")?,
            near,
        }
    } else {
        return Err(format!(
            "a {}, not a (chunk, quote) tuple or a dict",
            type_name(item)
        ));
    };
    // `utf8` here too, so a lone surrogate is refused before any work.
    let quote = utf8(&pair.quote).map_err(|e| format!("quote: {e}"))?;
    utf8(&pair.chunk).map_err(|e| format!("chunk: {e}"))?;
    if is_blank(quote) {
        return Err(format!("{BLANK_QUOTE}; give the words the model quoted"));
    }
    Ok(pair)
}

/// A hint's text, copied: hints are short, and the locator owns them.
fn owned(text: Option<&Bound<'_, PyString>>) -> PyResult<Option<String>> {
    Ok(text.map(utf8).transpose()?.map(str::to_owned))
}

/// `value` as a `str`, or why not.
fn string<'py>(value: &Bound<'py, PyAny>, key: &str) -> Result<Bound<'py, PyString>, String> {
    value
        .cast::<PyString>()
        .cloned()
        .map_err(|_| format!("{key} is a {}, not a str", type_name(value)))
}

/// A dict's `near` as an index, or why not.
fn near_of(value: &Bound<'_, PyAny>) -> Result<usize, String> {
    let at: i64 = value
        .extract()
        .map_err(|_| format!("near is a {}, not an int", type_name(value)))?;
    index(at).map_err(|why| format!("near={why}"))
}

/// `at` as a `str` index, or why it is not one.
fn index(at: i64) -> Result<usize, String> {
    usize::try_from(at).map_err(|_| format!("{at}: give a str index into the chunk, 0 or more"))
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "value".into(), |name| name.to_string())
}

/// The cut-offs as options, or `BadInput`.
fn options(
    py: Python<'_>,
    accept: f64,
    review: f64,
    meaning_guard: bool,
) -> PyResult<LocateOptions> {
    let options = LocateOptions {
        accept,
        review,
        meaning_guard,
        ..LocateOptions::default()
    };
    options.check_cutoffs(["accept", "review"]).map_err(|why| {
        let why = format!("{why}; give scores from 0 to 100 with review <= accept");
        raise(py, Failure::Input(why))
    })?;
    Ok(options)
}

/// Locates one job in its chunk's haystack.
fn find(hay: &Haystack<'_>, job: &Job<'_>, options: &LocateOptions) -> Option<Found> {
    let (located, choice) = hay.locate_hinted(job.quote, options, &job.hints)?;
    Some(Found { located, choice })
}

/// Locates every job, in order; consecutive jobs with the same chunk share its haystack (the
/// chunk is folded once), as the CLI's `--batch` does.
fn find_all(jobs: &[Job<'_>], options: &LocateOptions) -> Vec<Option<Found>> {
    let mut hay: Option<Haystack<'_>> = None;
    jobs.iter()
        .map(|job| {
            let same = |hay: &Haystack<'_>| hay.raw() == job.chunk;
            let hay = match hay.take() {
                Some(kept) if same(&kept) => hay.insert(kept),
                _ => hay.insert(Haystack::new(job.chunk)),
            };
            find(hay, job, options)
        })
        .collect()
}

/// The result dict: the fields of `locate --json` (`output::LocateOutput`, then the CLI's
/// `hints`), in its order. Built directly, with interned keys: this runs once per quote.
fn result<'py>(chunk: &Bound<'py, PyString>, found: Found) -> PyResult<Bound<'py, PyDict>> {
    let Found { located, choice } = found;
    let py = chunk.py();
    let dict = PyDict::new(py);
    dict.set_item(intern!(py, "start"), located.start)?;
    dict.set_item(intern!(py, "end"), located.end)?;
    dict.set_item(intern!(py, "score"), located.score)?;
    dict.set_item(intern!(py, "how"), intern_how(py, located.how))?;
    dict.set_item(intern!(py, "occurrences"), located.occurrences)?;
    if let Some(reason) = located.reason {
        dict.set_item(intern!(py, "reason"), reason)?;
    }
    dict.set_item(
        intern!(py, "text"),
        slice(chunk, located.start, located.end)?,
    )?;
    if let Some(choice) = choice {
        dict.set_item(intern!(py, "hints"), hints(py, &choice)?)?;
    }
    Ok(dict)
}

/// `chunk[start:end]`, cut by CPython: a `str` indexes its code points directly, so the span's
/// text is one copy, where decoding the UTF-8 up to it again costs a pass over the chunk.
fn slice<'py>(
    chunk: &Bound<'py, PyString>,
    start: usize,
    end: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let index =
        |at: usize| pyo3::ffi::Py_ssize_t::try_from(at).unwrap_or(pyo3::ffi::Py_ssize_t::MAX);
    // SAFETY: `chunk` is a live `str` (the GIL is held); `PyUnicode_Substring` returns a new
    // reference, or NULL with an exception set, which `from_owned_ptr_or_err` takes over.
    unsafe {
        let text = pyo3::ffi::PyUnicode_Substring(chunk.as_ptr(), index(start), index(end));
        Bound::from_owned_ptr_or_err(chunk.py(), text)
    }
}

/// How the hints chose, as the CLI's `hints` object: `{"candidates", "chosen", "agreement",
/// "tied"}`.
fn hints<'py>(py: Python<'py>, choice: &HintChoice) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item(intern!(py, "candidates"), choice.candidates)?;
    dict.set_item(intern!(py, "chosen"), choice.chosen)?;
    dict.set_item(intern!(py, "agreement"), choice.agreement)?;
    dict.set_item(intern!(py, "tied"), choice.tied)?;
    Ok(dict)
}

// Every CPython 3 exports it (it has been in the C API since 3.3); it joined the limited API
// in 3.10, so pyo3's abi3-py39 bindings leave it out. Declared here for `utf8`.
extern "C" {
    fn PyUnicode_AsUTF8AndSize(
        unicode: *mut pyo3::ffi::PyObject,
        size: *mut pyo3::ffi::Py_ssize_t,
    ) -> *const std::os::raw::c_char;
}

/// The UTF-8 text of a Python `str`, borrowed from the UTF-8 copy CPython caches inside the
/// object: encoded once per string, not once per call (pyo3's abi3-py39 `&str` makes a new
/// bytes object every call, a third of `locate`'s overhead on the reference vectors). A `str`
/// holding a lone surrogate raises `UnicodeEncodeError`, as `&str` extraction does.
fn utf8<'a>(text: &'a Bound<'_, PyString>) -> PyResult<&'a str> {
    let mut size: pyo3::ffi::Py_ssize_t = 0;
    // SAFETY: `text` is a live `str` (the GIL is held); CPython returns its cached UTF-8 buffer,
    // valid and unchanged while the object lives, which the borrow of `text` guarantees.
    unsafe {
        let data = PyUnicode_AsUTF8AndSize(text.as_ptr(), &mut size);
        if data.is_null() {
            return Err(PyErr::fetch(text.py()));
        }
        let bytes = std::slice::from_raw_parts(data.cast::<u8>(), size as usize);
        Ok(std::str::from_utf8_unchecked(bytes))
    }
}

/// `how`'s name as an interned Python string (four values, made once each).
fn intern_how(py: Python<'_>, how: How) -> &Bound<'_, PyString> {
    match how {
        How::Exact => intern!(py, "exact"),
        How::Folded => intern!(py, "folded"),
        How::Fuzzy => intern!(py, "fuzzy"),
        How::Review => intern!(py, "review"),
    }
}
