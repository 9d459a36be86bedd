//! The engine thread driven through its API, as the front ends drive it.

use super::*;
use okapi_core::game::EvalSource;
use okapi_core::search::EndgameSolver;

/// Asks the engine for a move at `level` and waits for it: the `Played` event.
fn play_at(engine: &mut Engine, position: Position, level: Level, book: bool) -> Event {
    engine.send(Request::Play {
        position,
        level,
        time: None,
        book: book.then_some(BOOK_RANDOMNESS),
    });
    let events = collect_until(engine, |e| matches!(e, Event::Played { .. }));
    events
        .into_iter()
        .last()
        .expect("collect_until ends with the event")
}

fn collect_until(engine: &Engine, mut done: impl FnMut(&Event) -> bool) -> Vec<Event> {
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        if let Some(Reply { event: e, .. }) = engine.recv_timeout(Duration::from_millis(100)) {
            let end = done(&e);
            seen.push(e);
            if end {
                return seen;
            }
        }
    }
    panic!("no final event; got {seen:?}");
}

/// FFO #1 (14 empties, Black to move, best g8 +18) from the repository's test data.
fn ffo1() -> Position {
    let text = include_str!("../../../tests/data/ffo1-39.scr");
    let line = text
        .lines()
        .find(|l| !l.starts_with('%') && l.len() > 64)
        .unwrap();
    Position::parse(line).unwrap()
}

#[test]
fn analysis_streams_exact_values_that_agree_with_the_solver() {
    let pos = ffo1();
    let mut engine = Engine::spawn(|| {});
    engine.send(Request::Analyse {
        position: pos,
        mode: SolveMode::Exact,
        max_depth: None,
    });
    let events = collect_until(&engine, |e| matches!(e, Event::AnalysisDone { .. }));
    let exact: Vec<(Square, i32)> = events
        .iter()
        .filter_map(|e| match e {
            Event::MoveValue { square, eval, .. } if eval.source == EvalSource::Exact => {
                Some((*square, eval.value))
            }
            _ => None,
        })
        .collect();
    assert_eq!(exact.len(), pos.legal_moves().len() as usize);
    let best = exact.iter().map(|v| v.1).max().unwrap();
    let root = EndgameSolver::new(18, Some(okapi_core::eval::Evaluator::shipped()))
        .solve(pos.board(), SolveMode::Exact, false)
        .unwrap();
    assert_eq!(best, root.score);
    let line = events.iter().find_map(|e| match e {
        Event::Solved { score, line, .. } => Some((*score, line.clone())),
        _ => None,
    });
    let (score, line) = line.expect("the analysis proves the principal line");
    assert_eq!(score, best);
    let Move::Play(first) = line[0] else {
        panic!("FFO #1 starts with a move")
    };
    assert_eq!(
        exact.iter().find(|v| v.0 == first).map(|v| v.1),
        Some(best),
        "the line starts with a best move"
    );
    let mut p = pos;
    for m in &line {
        p.play_move(*m).unwrap();
    }
    assert!(p.is_game_over(), "the line runs to the end");
    // each value checked independently
    let mut solver = EndgameSolver::new(18, Some(okapi_core::eval::Evaluator::shipped()));
    for (sq, v) in exact {
        let mut p = pos;
        p.play(sq).unwrap();
        let s = solver.solve(p.board(), SolveMode::Exact, false).unwrap();
        assert_eq!(v, -s.score, "{sq}");
    }
}

/// FFO #57 (26 empties): a solve that takes a long while, to be stopped or superseded.
fn ffo57() -> Position {
    let text = include_str!("../../../tests/data/ffo40-59.scr");
    let line = text.lines().find(|l| l.contains("ffo#57")).unwrap();
    let pos = Position::parse(line).unwrap();
    assert!(pos.empty_count() >= 24);
    pos
}

/// Every reply until one of `ticket` ends it.
fn replies_until_end_of(engine: &Engine, ticket: Ticket) -> Vec<Reply> {
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        if let Some(r) = engine.recv_timeout(Duration::from_millis(100)) {
            let end = r.ticket == ticket && r.event.is_final();
            seen.push(r);
            if end {
                return seen;
            }
        }
    }
    panic!("no final event of {ticket}; got {seen:?}");
}

fn solve_request(position: Position) -> Request {
    Request::Solve {
        position,
        mode: SolveMode::Exact,
    }
}

fn greedy_move() -> Request {
    Request::Play {
        position: Position::start(),
        level: Level::Greedy,
        time: None,
        book: None,
    }
}

#[test]
fn a_newer_request_supersedes_and_stop_works() {
    let mut engine = Engine::spawn(|| {});
    let pos = ffo57();
    let first = engine.send(solve_request(pos));
    std::thread::sleep(Duration::from_millis(50));
    let second = engine.send(greedy_move());
    assert!(second > first, "tickets increase");
    let replies = replies_until_end_of(&engine, second);
    // The solve's only event after the second request went is its end, superseded.
    let of_first: Vec<&Event> = replies
        .iter()
        .filter(|r| r.ticket == first)
        .map(|r| &r.event)
        .collect();
    assert_eq!(of_first, [&Event::Superseded]);
    let of_second: Vec<&Event> = replies
        .iter()
        .filter(|r| r.ticket == second)
        .map(|r| &r.event)
        .collect();
    let [
        Event::Played {
            mv: Move::Play(sq), ..
        },
        Event::Finished { .. },
    ] = of_second[..]
    else {
        panic!("{of_second:?}")
    };
    assert!(Position::start().is_legal(*sq));
    // Stop without a new request.
    let third = engine.send(solve_request(pos));
    std::thread::sleep(Duration::from_millis(50));
    let asked = Instant::now();
    engine.stop();
    let replies = replies_until_end_of(&engine, third);
    assert_eq!(replies.last().unwrap().event, Event::Stopped);
    eprintln!("stop took effect in {:?}", asked.elapsed());
    // Stopped before the worker has taken the request: the stop is not lost.
    let mut fresh = Engine::spawn(|| {});
    let ticket = fresh.send(solve_request(pos));
    fresh.stop();
    let replies = replies_until_end_of(&fresh, ticket);
    assert_eq!(replies.last().unwrap().event, Event::Stopped);
}

#[test]
fn a_request_superseded_before_it_starts_gets_exactly_one_final_event() {
    let mut engine = Engine::spawn(|| {});
    // The first keeps the worker busy while the next ones queue behind it.
    let busy = engine.send(solve_request(ffo57()));
    let queued: Vec<Ticket> = (0..5).map(|_| engine.send(greedy_move())).collect();
    let last = engine.send(greedy_move());
    let mut tickets = vec![busy];
    tickets.extend(&queued);
    tickets.push(last);
    assert!(tickets.windows(2).all(|w| w[0] < w[1]), "{tickets:?}");
    let replies = replies_until_end_of(&engine, last);
    // Nothing of the last request's is lost and nothing else of its comes after its end.
    assert!(engine.recv_timeout(Duration::from_millis(300)).is_none());
    for &t in &tickets[..tickets.len() - 1] {
        let of_t: Vec<&Event> = replies
            .iter()
            .filter(|r| r.ticket == t)
            .map(|r| &r.event)
            .collect();
        assert_eq!(of_t, [&Event::Superseded], "ticket {t}");
    }
    let finals = replies
        .iter()
        .filter(|r| r.ticket == last && r.event.is_final())
        .count();
    assert_eq!(finals, 1);
    assert!(matches!(
        replies.last().unwrap().event,
        Event::Finished { .. }
    ));
}

#[test]
fn stale_events_never_reach_the_receiver() {
    // The live analysis streams values many times a second; a new request sent while
    // they flow (none of them read yet) must hide every one of them.
    let mut engine = Engine::spawn(|| {});
    let analyse = || Request::Analyse {
        position: Position::start(),
        mode: SolveMode::Exact,
        max_depth: None,
    };
    let mut analyses = vec![engine.send(analyse())];
    let mut seen = Vec::new();
    for round in 0..20u64 {
        std::thread::sleep(Duration::from_millis(5 * (round % 4)));
        let next = engine.send(analyse());
        analyses.push(next);
        // Whatever is waiting now is the new request's, or an older request's end.
        while let Some(r) = engine.try_recv() {
            assert!(
                r.ticket == next || r.event == Event::Superseded,
                "round {round}: a stale event {r:?} after {next} was sent"
            );
            seen.push(r);
        }
    }
    let end = engine.send(greedy_move());
    for r in replies_until_end_of(&engine, end) {
        assert!(r.ticket == end || r.event == Event::Superseded, "{r:?}");
        seen.push(r);
    }
    // Every analysis (none ends by itself) got exactly one final event: superseded.
    for t in analyses {
        let finals: Vec<&Event> = seen
            .iter()
            .filter(|r| r.ticket == t && r.event.is_final())
            .map(|r| &r.event)
            .collect();
        assert_eq!(finals, [&Event::Superseded], "ticket {t}");
    }
}

#[test]
fn cancel_supersedes_without_a_new_request() {
    let mut engine = Engine::spawn(|| {});
    let ticket = engine.send(solve_request(ffo57()));
    std::thread::sleep(Duration::from_millis(20));
    engine.cancel();
    let replies = replies_until_end_of(&engine, ticket);
    let events: Vec<&Event> = replies.iter().map(|r| &r.event).collect();
    assert_eq!(events.last(), Some(&&Event::Superseded));
    assert!(
        events[..events.len() - 1].iter().all(|e| !e.is_final()),
        "{events:?}"
    );
    // The engine serves the next request as usual.
    let next = engine.send(greedy_move());
    let replies = replies_until_end_of(&engine, next);
    assert!(matches!(
        replies.last().unwrap().event,
        Event::Finished { .. }
    ));
}

#[test]
fn a_script_streams_its_results_and_stops_at_once() {
    let mut engine = Engine::spawn(|| {});
    let pos = ffo1();
    // A finished game is "solved" as its count, with no line.
    let finished = Position::from_discs(u64::MAX, 0, okapi_core::board::Color::Black);
    engine.send(Request::SolveScript {
        positions: vec![pos, finished],
        mode: SolveMode::Exact,
        lines: true,
        hash_bits: 16,
    });
    let events = collect_until(&engine, |e| matches!(e, Event::ScriptDone { .. }));
    let solved: Vec<(usize, i32, usize)> = events
        .iter()
        .filter_map(|e| match e {
            Event::ScriptSolved {
                index, score, line, ..
            } => Some((*index, *score, line.len())),
            _ => None,
        })
        .collect();
    assert_eq!(solved.len(), 2);
    assert_eq!((solved[0].0, solved[0].1), (0, 18), "FFO #1: +18");
    assert!(solved[0].2 >= 14, "a line to the end");
    assert_eq!((solved[1].1, solved[1].2), (64, 0));
    // A long script stops within the request, reporting Stopped.
    let text = include_str!("../../../tests/data/ffo40-59.scr");
    let line = text.lines().find(|l| l.contains("ffo#57")).unwrap();
    let long = Position::parse(line).unwrap();
    engine.send(Request::SolveScript {
        positions: vec![long, long],
        mode: SolveMode::Exact,
        lines: false,
        hash_bits: 18,
    });
    std::thread::sleep(Duration::from_millis(100));
    engine.stop();
    let events = collect_until(&engine, |e| {
        matches!(e, Event::Stopped | Event::ScriptDone { .. })
    });
    assert_eq!(events.last(), Some(&Event::Stopped));
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::ScriptSolved { .. }))
    );
}

#[test]
fn configured_threads_reach_the_searches_and_scripts_come_out_the_same() {
    // Small positions: FFO #1-#8 and the positions one move later.
    let text = include_str!("../../../tests/data/ffo1-39.scr");
    let mut positions = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('%')).take(8) {
        let p = Position::parse(line).unwrap();
        let mut next = p;
        next.play(p.legal_moves().iter().next().unwrap()).unwrap();
        positions.extend([p, next]);
    }
    let script = |engine: &mut Engine| {
        engine.send(Request::SolveScript {
            positions: positions.clone(),
            mode: SolveMode::Exact,
            lines: true,
            hash_bits: 18,
        });
        collect_until(engine, |e| matches!(e, Event::ScriptDone { .. }))
            .into_iter()
            .filter_map(|e| match e {
                Event::ScriptSolved {
                    index, score, line, ..
                } => Some((index, score, line)),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    let mut one = Engine::spawn_with(
        EngineOptions {
            config: EngineConfig::new(20, 1).unwrap(),
            ..EngineOptions::default()
        },
        || {},
    );
    let mut two = Engine::spawn(|| {});
    two.configure(Configuration {
        engine: EngineConfig::new(18, 2).unwrap(),
        solve_limit: DEFAULT_SOLVE_LIMIT,
        book: false,
    });
    two.send(Request::Solve {
        position: ffo1(),
        mode: SolveMode::Exact,
    });
    let events = collect_until(&two, |e| matches!(e, Event::Solved { .. }));
    assert!(matches!(
        events.last(),
        Some(Event::Solved { score: 18, .. })
    ));
    let by_two = script(&mut two);
    assert_eq!(
        by_two.iter().map(|r| r.0).collect::<Vec<_>>(),
        (0..positions.len()).collect::<Vec<_>>(),
        "in input order"
    );
    assert_eq!(by_two, script(&mut one));
}

#[test]
fn a_panic_becomes_an_error_event_and_the_engine_goes_on() {
    let mut engine = Engine::spawn(|| {});
    let crash = engine.send(Request::Crash);
    let replies = replies_until_end_of(&engine, crash);
    let [
        Reply {
            event: Event::Error { message },
            ..
        },
    ] = &replies[..]
    else {
        panic!("{replies:?}")
    };
    assert!(message.contains("deliberate crash"), "{message}");
    let solve = engine.send(Request::Solve {
        position: ffo1(),
        mode: SolveMode::Wld,
    });
    assert!(solve > crash);
    let replies = replies_until_end_of(&engine, solve);
    assert!(replies.iter().all(|r| r.ticket == solve), "{replies:?}");
    let events: Vec<&Event> = replies.iter().map(|r| &r.event).collect();
    let [
        ..,
        Event::Solved { score, line, .. },
        Event::Finished { .. },
    ] = &events[..]
    else {
        panic!("{events:?}")
    };
    assert_eq!(*score, 1);
    assert!(!line.is_empty());
}

#[test]
fn perfect_player_plays_the_best_move_in_the_endgame() {
    let mut engine = Engine::spawn(|| {});
    let level = Level::numbered(DEFAULT_LEVEL).solving_from(DEFAULT_SOLVE_LIMIT);
    let played = play_at(&mut engine, ffo1(), level, true);
    let Event::Played { mv, eval, .. } = &played else {
        panic!()
    };
    assert_eq!(*mv, Move::parse("g8").unwrap());
    assert_eq!(
        *eval,
        Some(Eval {
            value: 18,
            source: EvalSource::Exact
        })
    );
}

#[test]
fn game_analysis_values_played_moves_against_the_best() {
    // From FFO #1, Black plays b1 (-4) instead of g8 (+18): 22 discs lost.
    let pos = ffo1();
    let b1 = Square::parse("b1").unwrap();
    let mut after = pos;
    after.play(b1).unwrap();
    let reply = after.legal_moves().iter().next().unwrap();
    let mut engine = Engine::spawn(|| {});
    engine.send(Request::AnalyseGame {
        plies: vec![(0, pos, b1), (1, after, reply)],
    });
    let events = collect_until(&engine, |e| matches!(e, Event::AnalysisDone { .. }));
    let first = events
        .iter()
        .find_map(|e| match e {
            Event::PlyAnalysed {
                ply: 0,
                played,
                best,
                best_move,
                ..
            } => Some((*played, *best, *best_move)),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        first.0,
        Eval {
            value: -4,
            source: EvalSource::Exact
        }
    );
    assert_eq!(
        first.1,
        Eval {
            value: 18,
            source: EvalSource::Exact
        }
    );
    assert_eq!(first.2, Square::parse("g8").unwrap());
    let second = events
        .iter()
        .find(|e| matches!(e, Event::PlyAnalysed { ply: 1, .. }));
    let Some(Event::PlyAnalysed { played, best, .. }) = second else {
        panic!()
    };
    assert!(played.value <= best.value);
    assert_eq!(
        best.value, 4,
        "White's best after b1 is the negation of Black's -4"
    );
}

#[test]
fn above_the_solve_limit_the_midgame_search_values_every_move_deeper_and_deeper() {
    let mut engine = Engine::spawn(|| {});
    // The book would value the start position's moves: this is about the search.
    engine.configure(Configuration {
        engine: EngineConfig::new(20, 1).unwrap(),
        solve_limit: DEFAULT_SOLVE_LIMIT,
        book: false,
    });
    let pos = Position::start();
    engine.send(Request::Analyse {
        position: pos,
        mode: SolveMode::Exact,
        max_depth: None,
    });
    let mut depths: std::collections::HashMap<Square, u8> = Default::default();
    let events = collect_until(&engine, |e| {
        if let Event::MoveValue { square, eval, .. } = e {
            let EvalSource::Midgame { depth, confidence } = eval.source else {
                panic!("{eval:?}")
            };
            assert_eq!(confidence, 95);
            let old = depths.insert(*square, depth).unwrap_or(0);
            assert_eq!(depth, old + 1, "one depth after another for {square}");
        }
        depths.len() == 4 && depths.values().all(|&d| d >= 6)
    });
    let progress = events
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::Progress { message, .. } => Some(message.clone()),
            _ => None,
        })
        .unwrap();
    assert!(progress.starts_with("depth "), "{progress}");
    assert!(progress.contains("@95%"), "{progress}");
    // the principal line follows the value: a legal line from the start position
    let line = progress.split_whitespace().skip(3);
    let mut p = pos;
    for m in line {
        p.play_move(Move::parse(m).unwrap()).unwrap();
    }
    assert!(p.empty_count() < 60, "the line has moves");
}

#[test]
fn in_the_book_the_analysis_gives_book_values_and_the_player_book_moves() {
    let mut p = Position::start();
    p.play(Square::parse("f5").unwrap()).unwrap();
    let book = okapi_core::book::shipped().moves(&p.board());
    assert!(!book.is_empty(), "the shipped book knows f5");
    let mut engine = Engine::spawn(|| {});
    engine.send(Request::Analyse {
        position: p,
        mode: SolveMode::Exact,
        max_depth: None,
    });
    let mut tagged = std::collections::HashMap::new();
    collect_until(&engine, |e| {
        if let Event::MoveValue { square, eval, .. } = e
            && eval.source == EvalSource::Book
        {
            tagged.insert(*square, eval.value);
        }
        tagged.len() == book.len()
    });
    engine.stop();
    for m in &book {
        assert_eq!(
            tagged[&m.square],
            (m.discs()).round() as i32,
            "{}",
            m.square
        );
    }
    // The engine player plays a book move within the randomness of the best.
    for _ in 0..5 {
        let played = play_at(&mut engine, p, Level::numbered(DEFAULT_LEVEL), true);
        let Event::Played {
            mv: Move::Play(sq),
            eval: Some(eval),
            ..
        } = &played
        else {
            panic!("{played:?}")
        };
        assert_eq!(eval.source, EvalSource::Book);
        let m = book.iter().find(|m| m.square == *sq).expect("a book move");
        assert!(book[0].discs() - m.discs() <= BOOK_RANDOMNESS + 1e-9);
    }
    // With the book off the same request searches.
    engine.configure(Configuration {
        engine: EngineConfig::new(18, 1).unwrap(),
        solve_limit: DEFAULT_SOLVE_LIMIT,
        book: false,
    });
    let played = play_at(&mut engine, p, Level::numbered(2), false);
    let Event::Played {
        eval: Some(eval), ..
    } = &played
    else {
        panic!("{played:?}")
    };
    assert!(matches!(eval.source, EvalSource::Midgame { depth: 2, .. }));
}

#[test]
fn a_weakened_level_reports_its_candidates() {
    let mut engine = Engine::spawn(|| {});
    engine.configure(Configuration {
        engine: EngineConfig::new(18, 1).unwrap(),
        solve_limit: DEFAULT_SOLVE_LIMIT,
        book: true,
    });
    let played = play_at(
        &mut engine,
        Position::start(),
        Level::parse("4t3").unwrap(),
        true,
    );
    let Event::Played { mv, candidates, .. } = &played else {
        panic!()
    };
    assert_eq!(candidates.len(), 4);
    assert!(candidates.iter().any(|c| c.0 == *mv));
    let total: f64 = candidates.iter().map(|c| c.2).sum();
    assert!((total - 1.0).abs() < 1e-9);
    // Numbered levels search at ProbCut 95% at every depth.
    assert!(candidates.iter().all(|c| c.1.source
        == EvalSource::Midgame {
            depth: 4,
            confidence: 95
        }));
}

/// An engine whose loop is served elsewhere, as the browser's page does with its engine
/// worker: the page's loop hands its messages over as JSON, the other side serves them
/// one by one and its replies come back as JSON through the page's gate.
#[test]
fn a_loop_served_elsewhere_answers_through_json_and_is_overtaken_by_stop_and_supersede() {
    fn keep(
        slot: &std::rc::Rc<std::cell::RefCell<Option<EngineLoop>>>,
    ) -> impl FnOnce(EngineLoop) -> std::io::Result<Option<JoinHandle<()>>> + '_ {
        move |l| {
            *slot.borrow_mut() = Some(l);
            Ok(None)
        }
    }
    let page_slot = std::rc::Rc::new(std::cell::RefCell::new(None));
    let mut page = Engine::spawn_on(EngineOptions::default(), || {}, keep(&page_slot)).unwrap();
    let page_loop = page_slot.borrow_mut().take().unwrap();
    let far_slot = std::rc::Rc::new(std::cell::RefCell::new(None));
    let far = Engine::spawn_on(EngineOptions::default(), || {}, keep(&far_slot)).unwrap();
    let mut far_loop = far_slot.borrow_mut().take().unwrap();

    let ticket = page.send(Request::Solve {
        position: ffo1(),
        mode: SolveMode::Exact,
    });
    let waiting = page_loop.take_waiting();
    assert!(!waiting.closed);
    assert_eq!(waiting.messages.len(), 1);
    assert_eq!(page_loop.overtaken(ticket), None);
    for message in waiting.messages {
        let text = serde_json::to_string(&message).unwrap();
        far_loop.serve(serde_json::from_str(&text).unwrap());
    }
    while let Some(reply) = far.try_recv() {
        let text = serde_json::to_string(&reply).unwrap();
        page_loop.pass(serde_json::from_str(&text).unwrap());
    }
    let mut events = Vec::new();
    while let Some(reply) = page.try_recv() {
        assert_eq!(reply.ticket, ticket);
        events.push(reply.event);
    }
    let solved = events.iter().find_map(|e| match e {
        Event::Solved { score, line, .. } => Some((*score, line[0])),
        _ => None,
    });
    let g8 = Move::Play(Square::parse("g8").unwrap());
    assert_eq!(solved, Some((18, g8)), "{events:?}");
    assert!(
        matches!(events.last(), Some(Event::Finished { .. })),
        "{events:?}"
    );

    // A newer request overtakes the one in flight; a stop overtakes the newest.
    let first = page.send(Request::Solve {
        position: ffo1(),
        mode: SolveMode::Wld,
    });
    let second = page.send(Request::Solve {
        position: ffo1(),
        mode: SolveMode::Exact,
    });
    assert_eq!(page_loop.overtaken(first), Some(Event::Superseded));
    assert_eq!(page_loop.overtaken(second), None);
    page.stop();
    assert_eq!(page_loop.overtaken(second), Some(Event::Stopped));
    assert_eq!(page_loop.take_waiting().messages.len(), 2);
    drop(page);
    assert!(page_loop.take_waiting().closed);
}
