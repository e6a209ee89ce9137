# written by iomatrix report; re-plot with: gnuplot 4k-randread-t1-iops-vs-queue-depth.gp
set encoding utf8
set terminal svg size 800,440 fixed noenhanced font 'DejaVu Sans,12' background rgb 'white'
set output '4k-randread-t1-iops-vs-queue-depth.svg'
array C[2]
C[1] = '#0072B2'
C[2] = '#E69F00'
set title 'IOPS vs queue depth: 4K random read, 1 job'
set datafile missing '?'
set border 3 lc rgb '#555555'
set tics nomirror
set grid ytics lc rgb '#dddddd' lt 1
set key outside top center horizontal noenhanced
array D[2]
D[1] = 1
D[2] = 1
set xlabel 'queue depth'
set ylabel 'IOPS'
set logscale x 2
set format x '%g'
set ytics ('0' 0, '50k' 50000, '100k' 100000, '150k' 150000, '200k' 200000, '250k' 250000)
set yrange [0:250000]
plot for [i=1:2] '4k-randread-t1-iops-vs-queue-depth.dat' using (column(2*i-1)):(column(2*i)) with linespoints lw 2 pt 7 ps 0.6 lc rgb C[i] dt D[i] title columnhead(2*i)
set terminal pngcairo size 800,440 noenhanced font 'DejaVu Sans,10' background rgb 'white'
set output '4k-randread-t1-iops-vs-queue-depth.png'
plot for [i=1:2] '4k-randread-t1-iops-vs-queue-depth.dat' using (column(2*i-1)):(column(2*i)) with linespoints lw 2 pt 7 ps 0.6 lc rgb C[i] dt D[i] title columnhead(2*i)
set output
reset
