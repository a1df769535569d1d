//! Native tooling over the engine: tournaments with Elo (`arena`), self-play for the
//! trainer (`selfplay`), solver-checked move accuracy (`accuracy`), opening books grown by
//! drop-out expansion (`book`), puzzles found in games and proven by the solver
//! (`puzzles`), `.npz` files (`arrays`),
//! the ONNX Runtime backend (`onnxruntime`) and networks from files on a chosen runtime
//! (`models`). Threads and files live here, so the engine the page links has neither.

#![warn(unreachable_pub)]

pub mod accuracy;
pub mod arena;
pub mod arrays;
pub mod book;
pub mod models;
pub mod onnxruntime;
pub mod puzzles;
pub mod selfplay;
