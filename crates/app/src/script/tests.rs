use super::*;

#[test]
fn obf_lines_become_positions_with_their_expected_score() {
    let text = format!(
        "# a comment\n% kept\n{} X; A2:+38; C7:+36;\n\n{} X; junk\nnot a board\n",
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------",
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------"
    );
    let job = ScriptJob::from_bytes(Path::new("x.obf"), text.as_bytes());
    assert_eq!(job.rows.len(), 2);
    assert_eq!(job.rows[0].line_number, 3);
    assert_eq!(job.rows[0].expected, Some(38));
    assert_eq!(
        job.rows[1].expected, None,
        "a bad move field gives no score"
    );
    assert_eq!(job.bad.len(), 1);
    assert_eq!(job.bad[0].0, 6);
    assert!(job.output().is_none(), "nothing solved yet");
}

#[test]
fn output_follows_the_script_line_by_line() {
    let text = format!(
        "% head\n{} X % c1\n\nbad line % c2\n% End of the endgame script\n{} O\n",
        "-".repeat(63) + "X",
        "-".repeat(64)
    );
    let mut job = ScriptJob::from_bytes(Path::new("x.scr"), text.as_bytes());
    assert_eq!(job.rows.len(), 1, "nothing after the end marker");
    assert_eq!(job.bad.len(), 1);
    job.rows[0].result = Some(RowResult {
        outcome: Outcome::exact(okapi_core::board::Color::Black, 64),
        score: 64,
        line: vec![],
        nodes: 1,
        elapsed: Duration::ZERO,
    });
    let out = String::from_utf8(job.output().unwrap()).unwrap();
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("% head"));
    assert_eq!(lines.next(), Some("64 -  0      % c1"));
    assert!(lines.next().unwrap().starts_with("% error: "));
    assert_eq!(lines.next(), Some("% End of the endgame script"));
    assert_eq!(lines.next(), None);
    // Junk never panics.
    let junk = ScriptJob::from_bytes(Path::new("j.scr"), &[0xff, 0x00, b'\n', b';', 0x80]);
    assert_eq!(junk.rows.len(), 0);
    let junk = ScriptJob::from_bytes(Path::new("j.obf"), &[0xff, b';', b'\n', 0x80]);
    assert_eq!(junk.rows.len(), 0);
}

#[test]
fn ffo_comments_give_the_expected_result_and_it_is_checked() {
    assert_eq!(
        expected_from_comment("ffo#40 best:A2 score:+38"),
        (Some(38), vec![Move::parse("a2").unwrap()])
    );
    assert_eq!(
        expected_from_comment("best:g7/a4 score:-8"),
        (
            Some(-8),
            vec![Move::parse("g7").unwrap(), Move::parse("a4").unwrap()]
        )
    );
    assert_eq!(expected_from_comment("just a comment"), (None, vec![]));
    let ffo = include_str!("../../../../tests/data/ffo40-59.scr");
    let mut job = ScriptJob::from_bytes(Path::new("ffo.scr"), ffo.as_bytes());
    assert_eq!(job.rows[0].expected, Some(38));
    assert_eq!(job.rows[0].expected_best, vec![Move::parse("a2").unwrap()]);
    assert_eq!(job.agreement(), (0, 0), "nothing solved, nothing checked");
    let result = |score| RowResult {
        outcome: Outcome::exact(okapi_core::board::Color::Black, score),
        score,
        line: vec![],
        nodes: 1,
        elapsed: Duration::ZERO,
    };
    job.rows[0].result = Some(result(38));
    job.rows[1].result = Some(result(2));
    assert_eq!(job.check(&job.rows[0]), Some(true));
    assert_eq!(job.check(&job.rows[1]), Some(false), "#41 is +0");
    assert_eq!(job.agreement(), (1, 2));
    // WLD compares the sign only
    job.mode = SolveMode::Wld;
    job.rows[0].result = Some(result(1));
    assert_eq!(job.check(&job.rows[0]), Some(true));
}
