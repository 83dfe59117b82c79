#pragma once
// `gpusort-bench segmented`: many sorts at once (issue 52's shapes), gpusort beside CUB's forms and the
// copy bandwidth. argv[0] is "segmented"; returns the exit status (0, 1 a wrong result, 2 usage).
namespace bench {
int segmented_main(int argc, char** argv);
}
