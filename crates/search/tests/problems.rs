//! The solver against the problems of positions/problems.toml: at least 90% exactly right.

mod support;

#[test]
fn the_solver_gets_nine_in_ten_problems_exactly_right() {
    let problems = support::problems::load();
    assert!(
        problems.len() >= 80,
        "positions/problems.toml holds {} problems",
        problems.len()
    );
    let mut misses = Vec::new();
    for problem in &problems {
        let outcome = support::problems::judge(problem);
        if !outcome.exact {
            misses.push(format!("{}: {}", problem.id, outcome.detail));
        }
    }
    let solved = problems.len() - misses.len();
    let rate = solved as f64 / problems.len() as f64;
    println!(
        "solved {solved} of {} exactly ({:.1}%)",
        problems.len(),
        rate * 100.0
    );
    for miss in &misses {
        println!("  not exact: {miss}");
    }
    assert!(
        rate >= 0.9,
        "only {solved} of {} exactly right: {misses:#?}",
        problems.len()
    );
}
