//! One document through both parsers: `cargo run --example compare -- '<a xmlns="x"><b/></a>'`
//! (or `-f FILE`); prints both trees and their first difference.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let input = match args.as_slice() {
        [flag, path] if flag == "-f" => {
            std::fs::read_to_string(path).expect("a readable UTF-8 file")
        }
        [doc] => doc.clone(),
        _ => {
            eprintln!("usage: compare DOCUMENT | compare -f FILE");
            std::process::exit(2);
        }
    };
    let ours = tagstream_xml_differential::tagstream_tree(input.as_bytes());
    let theirs = tagstream_xml_differential::oracle_tree(&input);
    println!("tagstream: {ours:#?}\nroxmltree: {theirs:#?}");
    if let (Some(ours), Ok(theirs)) = (&ours, &theirs) {
        println!(
            "first difference: {:#?}",
            tagstream_xml_differential::first_difference(ours, theirs)
        );
    }
}
