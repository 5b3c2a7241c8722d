pub mod problems;
