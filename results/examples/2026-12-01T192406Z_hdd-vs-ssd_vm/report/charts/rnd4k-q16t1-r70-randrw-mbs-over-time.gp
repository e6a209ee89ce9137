# written by iomatrix report; re-plot with: gnuplot rnd4k-q16t1-r70-randrw-mbs-over-time.gp
set encoding utf8
set terminal svg size 800,440 fixed noenhanced font 'DejaVu Sans,12' background rgb 'white'
set output 'rnd4k-q16t1-r70-randrw-mbs-over-time.svg'
array C[4]
C[1] = '#0072B2'
C[2] = '#0072B2'
C[3] = '#E69F00'
C[4] = '#E69F00'
set title 'Throughput over time (first repetition): 4K random read/write, QD16, 70% reads (RND4K Q16T1 R70)'
set datafile missing '?'
set border 3 lc rgb '#555555'
set tics nomirror
set grid ytics lc rgb '#dddddd' lt 1
set key outside top center horizontal noenhanced
array D[4]
D[1] = 1
D[2] = 2
D[3] = 1
D[4] = 2
set xlabel 'time (s), each interval at its midpoint'
set ylabel 'MB/s (10^6 bytes/s)'
set ytics ('0' 0, '100' 100, '200' 200, '300' 300, '400' 400, '500' 500)
set yrange [0:500]
plot for [i=1:4] 'rnd4k-q16t1-r70-randrw-mbs-over-time.dat' using (column(2*i-1)):(column(2*i)) with linespoints lw 2 pt 7 ps 0.6 lc rgb C[i] dt D[i] title columnhead(2*i)
set terminal pngcairo size 800,440 noenhanced font 'DejaVu Sans,10' background rgb 'white'
set output 'rnd4k-q16t1-r70-randrw-mbs-over-time.png'
plot for [i=1:4] 'rnd4k-q16t1-r70-randrw-mbs-over-time.dat' using (column(2*i-1)):(column(2*i)) with linespoints lw 2 pt 7 ps 0.6 lc rgb C[i] dt D[i] title columnhead(2*i)
set output
reset
