fn main() {
    use okapi::board::Position;
    use okapi::search::{EndgameSolver, SolveMode};
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let mut solver = EndgameSolver::new(22);
    let mut total = 0u64;
    let t0 = std::time::Instant::now();
    for line in text.lines() {
        let pos = Position::parse(&line[..66]).unwrap();
        let want: i32 = line.split("score:").nth(1).unwrap().trim().parse().unwrap();
        let s = solver.solve(pos.board(), SolveMode::Exact, true).unwrap();
        total += s.nodes;
        println!("{} {:+} want {:+} {} {} nodes {:.3}s {}", &line[69..75], s.score, want, if s.score == want {"ok"} else {"WRONG"}, s.nodes, s.elapsed.as_secs_f64(), s.line.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" "));
    }
    println!("total {} nodes {:.2}s {:.1} Mn/s", total, t0.elapsed().as_secs_f64(), total as f64 / t0.elapsed().as_secs_f64() / 1e6);
}
