# written by iomatrix report; re-plot with: gnuplot bars-iops-1.gp
set encoding utf8
set terminal svg size 800,460 fixed noenhanced font 'DejaVu Sans,12' background rgb 'white'
set output 'bars-iops-1.svg'
array C[2]
C[1] = '#0072B2'
C[2] = '#E69F00'
set datafile missing '?'
set border 3 lc rgb '#555555'
set tics nomirror
set grid ytics lc rgb '#dddddd' lt 1
set key top left noenhanced
set bmargin 6
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.9 noborder
set xtics rotate by 30 right scale 0 font ',9' noenhanced
set key above
set ylabel 'IOPS'
set logscale y 10
set yrange [208.543:*]
set format y '%.0s%c'
plot for [i=2:3] 'bars-iops-1.dat' using i:xtic(1) title columnhead(i) lc rgb C[i-1]
set terminal pngcairo size 800,460 noenhanced font 'DejaVu Sans,10' background rgb 'white'
set output 'bars-iops-1.png'
plot for [i=2:3] 'bars-iops-1.dat' using i:xtic(1) title columnhead(i) lc rgb C[i-1]
set output
reset
